import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";
import type { Locator, Page } from "@playwright/test";

let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

const AUTUMN = "Reviewer relevance, autumn round";

/** An expert's box in the form's "Experts invited" list (labelled "Name (email)"). */
const expert = (scope: Page | Locator, email: string) =>
  scope
    .getByRole("group", { name: "Experts invited" })
    .getByRole("checkbox", { name: new RegExp(`\\(${email.replace(/\./g, "\\.")}\\)$`) });
const TWO = ["expert@assay.local", "expert2@assay.local"];
async function inviteTwo(page: Page) {
  for (const email of TWO) await expert(page, email).check();
}

/** Screenshots (for the report's look at both widths) at 1440×900 and 390×844, from `from` down. */
async function shotsAtBothWidths(page: Page, path: string, from?: Locator) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await from?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${path}-${width}.png` });
  }
}

async function openAutumn(page: Page, query = "") {
  const [c] = await sql<{ id: number }[]>`select id from campaigns where name = ${AUTUMN}`;
  await page.goto(`/admin/campaigns/${c.id}${query}`);
  return c.id;
}

test("an admin creates and launches a campaign, sees progress and agreement", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/campaigns");
  await expect(page.getByRole("table", { name: "Campaigns" }).getByRole("row")).toHaveCount(2);
  await page.getByRole("link", { name: AUTUMN }).click();
  // One demo expert grades a point too high (scripts/demo/gold-items.ts), which pulls α down to about 0.36.
  await expect(page.getByText(/Krippendorff's α \(ordinal\) = 0\.3\d\d/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Progress per expert" }).getByRole("row")).toHaveCount(4);

  await page.goto("/admin/campaigns");
  await page.getByLabel("Name", { exact: true }).fill("Small round");
  await page.getByLabel("Raters per proposal").fill("2");
  await page.getByLabel("Proposals", { exact: true }).selectOption({ label: "Subject: Ecology" });
  await page.getByRole("button", { name: "Create campaign" }).click();
  // A field's error is shown next to it, and the field is described by it.
  await expect(page.getByRole("group", { name: "Experts invited" })).toHaveAccessibleDescription(
    /invite at least one expert/,
  );
  await page.getByLabel("Name", { exact: true }).fill("Small round");
  await page.getByLabel("Raters per proposal").fill("2");
  await inviteTwo(page);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Small round");
  await page.getByRole("button", { name: "Launch campaign" }).click();
  await expect(page.getByRole("status")).toContainText(/Launched: \d+ pairs to grade, 50 assignments/);
  await expect(page.getByRole("table", { name: "Progress per expert" }).getByRole("row")).toHaveCount(3);
});

test("reassignment offers only eligible experts, and only for unfinished work", async ({ page }) => {
  const campaignId = (await sql<{ id: number }[]>`select id from campaigns where name = ${AUTUMN}`)[0].id;
  // A stand-in expert (eligible), one who is a candidate in a pool (conflicted there), and one inactive.
  const [pooled] = await sql<{ proposal: string; email: string }[]>`
    select p.external_id as proposal, c.email from campaign_items i join candidates c on c.id = i.candidate_id join proposals p on p.id = i.proposal_id
    where i.campaign_id = ${campaignId} and c.email is not null order by i.id limit 1`;
  await sql`insert into users (email, name, roles, password_hash, active) values
    ('stand-in@assay.local', 'Stella Standin', '{expert}', 'unused', true),
    (${pooled.email}, 'Cody Conflicted', '{expert}', 'unused', true),
    ('retired@assay.local', 'Rita Retired', '{expert}', 'unused', false)`;
  const [finished] = await sql<{ proposal: string; name: string }[]>`
    update campaign_assignments a set finished_at = now() from users u, proposals p
    where a.id = (select a2.id from campaign_assignments a2 join users u2 on u2.id = a2.expert_id
                  where a2.campaign_id = ${campaignId} and u2.email = 'expert2@assay.local' order by a2.id limit 1)
      and u.id = a.expert_id and p.id = a.proposal_id
    returning p.external_id as proposal, u.name`;

  await signIn(page, demoLogin.admin);
  await openAutumn(page);
  await page.getByText(/reassign a stalled one/).click();
  const table = page.getByRole("table", { name: "Progress per proposal" });
  const choice = table.getByLabel(`Expert to take over ${pooled.proposal} from Erin Expert`);
  // Everyone else on the proposal already has it, the conflicted one is in its pool, the retired one is inactive.
  await expect(choice.locator("option")).toHaveText(["—", "Stella Standin"]);
  const elsewhere = table
    .getByRole("combobox")
    .filter({ hasNot: page.locator(`[aria-label*=" ${pooled.proposal} "]`) })
    .first();
  await expect(elsewhere.locator("option", { hasText: "Rita Retired" })).toHaveCount(0);
  await expect(elsewhere.locator("option", { hasText: "Erin Expert" })).toHaveCount(0);
  // The finished assignment has no reassign control at all.
  await expect(
    table.getByLabel(`Expert to take over ${finished.proposal} from ${finished.name}`),
  ).toHaveCount(0);
  await expect(
    table.getByRole("row", { name: new RegExp(`${finished.proposal} ${finished.name} .*✓`) }),
  ).toBeVisible();

  await choice.selectOption({ label: "Stella Standin" });
  await choice.locator("xpath=..").getByRole("button", { name: "Reassign" }).click();
  await expect(page.getByRole("status")).toHaveText("Reassigned.");
  await expect(table.getByLabel(`Expert to take over ${pooled.proposal} from Stella Standin`)).toBeVisible();
  await expect(
    table.getByLabel(`Expert to take over ${pooled.proposal} from Stella Standin`).locator("option"),
  ).toHaveText(["—", "Erin Expert"]);
});

test("the disagreement queue names pairs, filters unresolved and adjudicated, and pages", async ({
  page,
}) => {
  await signIn(page, demoLogin.admin);
  await openAutumn(page);
  const queue = page.getByRole("table", { name: "Disagreement queue" });
  const filter = page.getByRole("navigation", { name: "Which disagreements" });
  await expect(filter.getByRole("link", { name: /^Unresolved/ })).toHaveAttribute("aria-current", "page");
  const count = async (label: string) =>
    Number(
      (await filter.getByRole("link", { name: new RegExp(`^${label}`) }).innerText()).replace(/\D/g, ""),
    );
  const unresolved = await count("Unresolved");
  expect(unresolved).toBeGreaterThan(20);
  await expect(queue.getByRole("row")).toHaveCount(21);
  const pages = Math.ceil(unresolved / 20);
  const pager = page.getByRole("navigation", { name: "Disagreement pages" });
  await expect(pager).toContainText(`Page 1 of ${pages}`);

  // Titles and names, not bare ids: the first pair's proposal title and candidate name, as stored.
  const firstRow = queue.getByRole("row").nth(1);
  const ids = /\((prop-\d{4})\)[\s\S]*\((cand-\d{4})\)/.exec(await firstRow.innerText())!;
  const [names] = await sql<
    { title: string; name: string }[]
  >`select p.title, c.name from proposals p, candidates c where p.external_id = ${ids[1]} and c.external_id = ${ids[2]}`;
  await expect(firstRow.getByRole("cell").nth(0)).toHaveText(`${names.title} (${ids[1]})`);
  await expect(firstRow.getByRole("cell").nth(1)).toHaveText(`${names.name} (${ids[2]})`);

  await pager.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/queue=unresolved&page=2/);
  await expect(pager).toContainText(`Page 2 of ${pages}`);
  await expect(queue.getByRole("row").nth(1)).not.toContainText(ids[2] + ")");
  await pager.getByRole("link", { name: "← Previous" }).click();
  await expect(pager).toContainText(`Page 1 of ${pages}`);

  const first = queue.getByRole("form").first();
  await first.getByLabel("Final grade").selectOption("4");
  await first.getByLabel("Note").fill("Checked the profile");
  await first.getByRole("button", { name: "Adjudicate" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Adjudicated: the final grade replaces the median for this pair.",
  );
  // The decided pair leaves the unresolved list and waits under "Adjudicated" with its grade and note.
  await expect(filter.getByRole("link", { name: /^Unresolved/ })).toHaveText(
    `Unresolved (${unresolved - 1})`,
  );
  await expect(queue.getByRole("row", { name: new RegExp(`\\(${ids[2]}\\)`) })).toHaveCount(0);
  await filter.getByRole("link", { name: /^Adjudicated/ }).click();
  await expect(page).toHaveURL(/queue=adjudicated&page=1/);
  const decided = queue.getByRole("row", { name: new RegExp(`\\(${ids[1]}\\).*\\(${ids[2]}\\)`) });
  await expect(decided).toContainText("Final grade 4: Checked the profile");
  await expect(decided.getByRole("button", { name: "Change" })).toBeVisible();
  await filter.getByRole("link", { name: /^All/ }).click();
  await expect(page.getByRole("navigation", { name: "Disagreement pages" })).toContainText(
    `Page 1 of ${Math.ceil((await count("All")) / 20)}`,
  );
  await page.goto(page.url().replace(/queue=all/, "queue=nonsense"));
  await expect(page.getByText("queue must be unresolved, adjudicated or all")).toBeVisible();
});

test("the qrels download has one line per graded pair", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await openAutumn(page);
  await expect(page.getByRole("table", { name: "Results by system" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("table", { name: "Label learning curve" }).getByRole("row")).toHaveCount(4);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "TREC qrels" }).click();
  const file = await download;
  const text = await (
    await file.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const lines = text.trim().split("\n");
  expect(lines.length).toBeGreaterThan(100);
  for (const line of lines) expect(line).toMatch(/^prop-\d{4} 0 cand-\d{4} [0-3]$/);
});

test("a draft campaign is edited with a prefilled form, then deleted after a confirmation", async ({
  page,
}) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/campaigns");
  await page.getByLabel("Name", { exact: true }).fill("Draft round");
  await page.getByLabel("Raters per proposal").fill("2");
  await inviteTwo(page);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Draft round");
  const edit = page.getByRole("region", { name: "Edit this draft" });
  await expect(edit.getByLabel("Name", { exact: true })).toHaveValue("Draft round");
  await expect(edit.getByLabel("Raters per proposal")).toHaveValue("2");
  for (const email of TWO) await expect(expert(edit, email)).toBeChecked();
  await expect(expert(edit, "expert3@assay.local")).not.toBeChecked();
  await edit.getByLabel("Name", { exact: true }).fill("Draft round, edited");
  await edit.getByLabel("Raters per proposal").fill("5");
  await edit.getByRole("button", { name: "Save draft" }).click();
  await expect(edit.getByRole("group", { name: "Experts invited" })).toHaveAccessibleDescription(
    "5 raters per proposal need at least 5 experts",
  );
  await edit.getByLabel("Raters per proposal").fill("1");
  await edit.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Draft saved.");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Draft round, edited");
  await expect(page.getByText("1 raters per proposal")).toBeVisible();

  await edit.getByRole("button", { name: "Delete this draft…" }).click();
  await edit.getByRole("button", { name: "Yes, delete the campaign Draft round, edited" }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns$/);
  await expect(page.getByRole("link", { name: "Draft round, edited" })).toHaveCount(0);
  // A running campaign offers neither.
  await openAutumn(page);
  await expect(page.getByRole("region", { name: "Edit this draft" })).toHaveCount(0);
});

test("a draft experiment is edited with a prefilled form, then deleted after a confirmation", async ({
  page,
}) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/experiments");
  await page.getByLabel("Key", { exact: true }).fill("draft-exp");
  await page.getByLabel("Name", { exact: true }).fill("Draft experiment");
  await page.getByRole("button", { name: "Create experiment" }).click();
  await expect(page).toHaveURL(/\/admin\/experiments\/draft-exp$/);
  const edit = page.getByRole("region", { name: "Edit this draft" });
  await expect(edit.getByLabel("Key", { exact: true })).toHaveValue("draft-exp");
  await expect(edit.getByLabel("Arm 2 weight")).toHaveValue("0.5");
  await edit.getByLabel("Name", { exact: true }).fill("Draft experiment, edited");
  await edit.getByLabel("Arm 1 weight").fill("0.3");
  await edit.getByLabel("Arm 2 weight").fill("0.7");
  await edit.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Draft experiment, edited");
  await expect(
    page.getByText(/Arms: A = \S+ \(weight 30\.0%, control\); B = \S+ \(weight 70\.0%\)/),
  ).toBeVisible();

  await edit.getByRole("button", { name: "Delete this draft…" }).click();
  await edit.getByRole("button", { name: "Yes, delete the experiment draft-exp" }).click();
  await expect(page).toHaveURL(/\/admin\/experiments$/);
  await expect(page.getByRole("link", { name: "draft-exp" })).toHaveCount(0);
});

test("no admin form overlaps, from 390 to 1920 pixels wide", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  for (const width of [390, 768, 1024, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/admin/experiments", "/admin/campaigns", "/admin/users"]) {
      await page.goto(path);
      const overlaps = await page.locator(".form-grid").evaluateAll((grids) =>
        grids.flatMap((grid) => {
          const box = grid.getBoundingClientRect();
          const fields = [...grid.querySelectorAll<HTMLElement>("input, select, textarea, label")].map((el) =>
            el.getBoundingClientRect(),
          );
          const problems: string[] = [];
          fields.forEach((a, i) => {
            if (a.right > box.right + 1 || a.left < box.left - 1) problems.push(`field ${i} leaves its grid`);
            fields.slice(i + 1).forEach((b, j) => {
              const overlap =
                Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
                Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
              const nested =
                (a.left <= b.left && a.right >= b.right && a.top <= b.top && a.bottom >= b.bottom) ||
                (b.left <= a.left && b.right >= a.right && b.top <= a.top && b.bottom >= a.bottom);
              if (overlap && !nested) problems.push(`fields ${i} and ${i + j + 1} overlap`);
            });
          });
          return problems;
        }),
      );
      expect(overlaps, `${path} at ${width}px`).toEqual([]);
    }
  }
});

test("each overview tile opens the page that lists what it counts", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  const expected: [string, RegExp, string][] = [
    ["Ranked lists", /\/admin\/lists$/, "Ranked lists"],
    ["List items", /\/admin\/lists\?sort=items&dir=desc$/, "Ranked lists"],
    ["Gold members", /\/admin\/proposals\?sort=gold&dir=desc$/, "Proposals"],
    ["Subjects", /\/admin\/proposals\?sort=subject$/, "Proposals"],
    ["Systems", /\/admin\/systems$/, "Systems and their ranked lists"],
  ];
  for (const [tile, url, heading] of expected) {
    await page.goto("/admin");
    await page
      .locator(".cards")
      .getByRole("link", { name: new RegExp(`^${tile}`) })
      .click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  }
});

test("more grades of a chosen pair give a new expert that pair alone, blind, and the monitor says so", async ({
  page,
  browser,
}, info) => {
  const SCOPED = "scoped@assay.local";
  await signIn(page, demoLogin.admin);
  const campaignId = await openAutumn(page);
  const form = page.locator("#request-grades-form");
  const topItem = Number((await form.locator('input[name="items"]').inputValue()).split(",")[0]);
  const [pair] = await sql<
    { alias: string; subjectId: number | null; proposal: string; name: string; candidate: string }[]
  >`
    select i.alias, p.subject_id as "subjectId", p.external_id as proposal, c.name, c.external_id as candidate
    from campaign_items i join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
    where i.id = ${topItem}`;
  // A new expert of the proposal's subject (the demo's experts all have it): first in line, with the demo password.
  const [{ id: scopedId }] = await sql<{ id: number }[]>`
    insert into users (email, name, roles, password_hash, active)
    select ${SCOPED}, 'Sam Scoped', '{expert}', password_hash, true from users where email = ${demoLogin.expert}
    returning id`;
  if (pair.subjectId !== null)
    await sql`insert into user_subjects (user_id, subject_id) values (${scopedId}, ${pair.subjectId})`;
  try {
    await form.getByLabel("Pairs from the top").fill("1");
    await form.getByLabel("More grades per pair").fill("1");
    await form.getByRole("button", { name: "Ask for more grades" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Asked for 1 more grade on 1 pair: 1 new assignment over 1 proposal, each for the chosen pairs only.",
    );
    // The pair's row says one grade is on its way (columns: grades, asked and not given yet, label …).
    await expect(
      page
        .getByRole("table", { name: "Pairs that need another grade" })
        .getByRole("row", { name: new RegExp(`^${pair.proposal} ${pair.candidate} \\d+ 1 `) }),
    ).toBeVisible();
    await page.getByText(/reassign a stalled one/).click();
    const row = page
      .getByRole("table", { name: "Progress per proposal" })
      .getByRole("row", { name: new RegExp(`^${pair.proposal} Sam Scoped chosen pairs 0 / 1`) });
    await expect(row).toBeVisible();
    await shotsAtBothWidths(page, info.outputPath("admin-progress"), row);
    await shotsAtBothWidths(page, info.outputPath("admin-needs-grade"), page.locator("#needs-grade-heading"));

    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const expertPage = await context.newPage();
    await signIn(expertPage, SCOPED);
    await expect(expertPage.getByRole("row", { name: /^to do/ })).toHaveCount(1);
    await expertPage
      .getByRole("row", { name: /^to do/ })
      .getByRole("link")
      .click();
    const cards = expertPage.locator("section.grade-card");
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toHaveAttribute("aria-label", pair.alias);
    expect(await expertPage.content()).not.toContain(pair.name);
    await expect(cards.first()).toBeFocused();
    await shotsAtBothWidths(expertPage, info.outputPath("scoped-task"));
    await cards.first().focus();
    await expertPage.keyboard.press("3");
    await expect(expertPage.getByRole("status", { name: `Save state of ${pair.alias}` })).toHaveText("Saved");
    await expertPage.getByRole("button", { name: "Finish" }).click();
    await expect(expertPage).toHaveURL(/\/expert\?finished=\d+$/);
    await context.close();
  } finally {
    // Leave the demo campaign as the other specs expect it: no extra assignment, grade or expert.
    await sql`delete from campaign_assignments where campaign_id = ${campaignId} and expert_id = ${scopedId}`;
    await sql`delete from campaign_experts where user_id = ${scopedId}`;
    await sql`update users set active = false where id = ${scopedId}`;
  }
});
