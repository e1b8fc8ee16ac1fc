import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";

let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

test("a convener in an interleaving experiment sees one merged list, the same on reload, with no team in the page; the impression stores teams", async ({
  page,
  browser,
}) => {
  const admin = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(admin, demoLogin.admin);
  await admin.goto("/admin/experiments");
  await admin.getByLabel("Key", { exact: true }).fill("merged-e2e");
  await admin.getByLabel("Name", { exact: true }).fill("Merged lists");
  await admin.getByLabel("Kind").selectOption("interleaving");
  await admin.getByLabel("Or only these proposals").fill("prop-0009");
  await admin.getByLabel("Arm 1 system").selectOption("baseline");
  await admin.getByLabel("Arm 2 system").selectOption("challenger");
  await admin.getByRole("button", { name: "Create experiment" }).click();
  await expect(admin).toHaveURL(/\/admin\/experiments\/merged-e2e$/);
  await admin.getByRole("button", { name: "Start experiment" }).click();
  await expect(admin.getByText("running", { exact: true })).toBeVisible();

  await signIn(page, demoLogin.convener);
  await page.goto("/convener/proposals/prop-0009");
  const reviewers = () =>
    page
      .getByRole("heading", { name: "Recommended reviewers" })
      .locator("xpath=..")
      .getByRole("listitem")
      .locator("button.profile-link")
      .allInnerTexts();
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  const names = await reviewers();
  expect(names.length).toBeGreaterThan(4);
  // Neither the markup nor the loader data embedded in it says which system placed whom.
  const html = await page.content();
  expect(html).not.toMatch(/teams|data-team|baseline|challenger/i);
  const stored = () => sql<{ items: string[]; teams: string[]; session_id: string }[]>`
    select e.items, e.teams, e.session_id from events e join experiments x on x.id = e.experiment_id
    where x.key = 'merged-e2e' and e.type = 'impression' order by e.received_at`;
  // Each view posts its impression once shown: wait for it before the reload makes the second.
  await expect.poll(async () => (await stored()).length, { timeout: 30_000 }).toBe(1);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  expect(await reviewers()).toEqual(names);
  await expect.poll(async () => (await stored()).length, { timeout: 30_000 }).toBe(2);
  const impressions = await stored();
  expect(impressions[1]).toEqual(impressions[0]);
  expect(impressions[0].teams).toHaveLength(impressions[0].items.length);
  expect(new Set(impressions[0].teams)).toEqual(new Set(["baseline", "challenger"]));
  // Team-draft: every prefix of the list is balanced within one pick.
  let balance = 0;
  for (const team of impressions[0].teams) {
    balance += team === "baseline" ? 1 : -1;
    expect(Math.abs(balance)).toBeLessThanOrEqual(1);
  }

  // A click is credited on the analysts' results page.
  await page.getByRole("button", { name: names[0], exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(names[0]);
  await admin.goto("/analyst/experiments/merged-e2e");
  const clickRow = admin
    .getByRole("table", { name: "Interleaving results" })
    .locator('tr[data-credit="click"]');
  await expect(clickRow.locator("td").first()).toHaveText("1");
  // Sessions, wins of the control, wins of the challenger: the one click won the session for one of them.
  const [winsA, winsB] = await Promise.all(
    [1, 2].map(async (i) => Number(await clickRow.locator("td").nth(i).innerText())),
  );
  expect(winsA + winsB).toBe(1);
  await admin.goto("/admin/experiments/merged-e2e");
  await admin.getByRole("button", { name: "Stop experiment" }).click();
  await admin.getByRole("button", { name: "Yes, stop the experiment" }).click();
  await expect(admin.getByText("stopped", { exact: true })).toBeVisible();
});

test("a multileaving experiment of three systems: the form refuses two, the convener sees no team, the analyst sees the matrix", async ({
  page,
  browser,
}) => {
  // A third system whose list for prop-0009 is the challenger's reversed.
  await sql`insert into systems (key, name, version) values ('hybrid-e2e', 'Hybrid', '1') on conflict do nothing`;
  await sql`
    with source as (
      select l.id, l.proposal_id from ranked_lists l join systems s on s.id = l.system_id
      join proposals p on p.id = l.proposal_id
      where s.key = 'challenger' and p.external_id = 'prop-0009' and l.variant = 'default'),
    made as (
      insert into ranked_lists (system_id, proposal_id, variant)
      select (select id from systems where key = 'hybrid-e2e'), proposal_id, 'default' from source
      returning id)
    insert into list_items (list_id, rank, candidate_id)
    select (select id from made), row_number() over (order by i.rank desc), i.candidate_id
    from list_items i where i.list_id = (select id from source)`;
  const admin = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(admin, demoLogin.admin);
  await admin.goto("/admin/experiments");
  await admin.getByLabel("Key", { exact: true }).fill("multi-e2e");
  await admin.getByLabel("Name", { exact: true }).fill("Three rankers");
  await admin.getByLabel("Kind").selectOption("interleaving");
  await admin.getByLabel("Interleaving method").selectOption("multileaving");
  await admin.getByLabel("Or only these proposals").fill("prop-0009");
  await admin.getByLabel("Arm 1 system").selectOption("baseline");
  await admin.getByLabel("Arm 2 system").selectOption("challenger");
  await admin.getByRole("button", { name: "Create experiment" }).click();
  await expect(admin.getByText("multileaving compares three or more systems, not 2").first()).toBeVisible();
  await admin.getByLabel("Arm 3 key").fill("C");
  await admin.getByLabel("Arm 3 system").selectOption("hybrid-e2e");
  for (const [i, w] of ["0.34", "0.33", "0.33"].entries())
    await admin.getByLabel(`Arm ${i + 1} weight`).fill(w);
  await admin.getByRole("button", { name: "Create experiment" }).click();
  await expect(admin).toHaveURL(/\/admin\/experiments\/multi-e2e$/);
  await admin.getByRole("button", { name: "Start experiment" }).click();
  await expect(admin.getByText("running", { exact: true })).toBeVisible();

  await signIn(page, demoLogin.convener);
  await page.goto("/convener/proposals/prop-0009");
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  expect(await page.content()).not.toMatch(/teams|data-team|baseline|challenger|hybrid/i);
  const impressions = () => sql<{ teams: string[] }[]>`
    select e.teams from events e join experiments x on x.id = e.experiment_id
    where x.key = 'multi-e2e' and e.type = 'impression'`;
  // The page posts its impression once shown.
  await expect.poll(async () => (await impressions()).length, { timeout: 30_000 }).toBe(1);
  const [impression] = await impressions();
  expect(new Set(impression.teams)).toEqual(new Set(["baseline", "challenger", "hybrid-e2e"]));
  const first = page.locator("button.profile-link").first();
  const name = await first.innerText();
  await first.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  await admin.goto("/analyst/experiments/multi-e2e");
  const matrix = admin.getByRole("table", { name: "Preference matrix, click credit" });
  await expect(matrix).toBeVisible();
  // The one click makes its system preferred over both others: first in the click ranking.
  const ranking = admin.getByRole("table", { name: "Ranking, click credit" });
  await expect(ranking.locator("tbody tr").first().locator("td").nth(1)).toHaveText("+2");
  await expect(admin.locator("#interleaving-verdict")).toContainText("By clicks, the systems rank");
  await admin.goto("/admin/experiments/multi-e2e");
  await admin.getByRole("button", { name: "Stop experiment" }).click();
  await admin.getByRole("button", { name: "Yes, stop the experiment" }).click();
  await expect(admin.getByText("stopped", { exact: true })).toBeVisible();
});

test("the demo multileave's page slices the preference matrix by subject and by a convener attribute", async ({
  page,
}) => {
  // Reads the demo multileave's whole result and its slices (bootstraps included) on a shared machine.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments/reviewer-ranker-multileaved");
  const slices = page.getByRole("region", { name: "Slices", exact: true });
  await expect(slices.getByRole("heading", { name: "Slices by subject" })).toBeVisible();
  await expect(slices).toContainText(/\d+ comparisons \(\d+ subjects with enough conveners × 3 pairs/);
  await expect(slices).toContainText("adjusted by Holm");
  await slices.getByLabel("Slice by").selectOption("seniority");
  await expect(slices.getByRole("heading", { name: "Slices by seniority" })).toBeVisible();
  const table = slices.getByRole("table", { name: "Slices by seniority" });
  await expect(table.getByRole("row").filter({ hasText: "baseline over challenger" }).first()).toBeVisible();
  await slices.getByLabel("Adjust p by").selectOption("bh");
  await expect(slices).toContainText("adjusted by Benjamini–Hochberg");
  const shots = process.env.MSLICE_SHOTS;
  if (shots)
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await slices.screenshot({ path: `${shots}/multileave-slices-${width}.png` });
      await page.screenshot({ path: `${shots}/multileave-page-${width}.png`, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      console.log(`mslice ${width}: page scrolls sideways by ${overflow}px`);
    }
});
