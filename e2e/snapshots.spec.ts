import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { formatRate } from "../app/utils/format";
import { demoLogin, expect, signIn, test } from "./test";

/** A GET from the page itself: the session cookie is Secure, which Playwright's request client withholds over http. */
const get = (page: Page, url: string) =>
  page.evaluate(async (u) => {
    const r = await fetch(u);
    return { status: r.status, text: await r.text() };
  }, url);

test("an analyst freezes a snapshot, downloads it, and the CLI computes the same result", async ({
  page,
}) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/snapshots");
  await page.getByLabel("Resamples").fill("200");
  await page.getByLabel("Seed").fill("e2e");
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  await expect(page.getByRole("status")).toHaveText("The data has not changed since this snapshot.");
  // The same dashboard as the live page, drawn from the stored result: tables and charts.
  // (Other tests import systems into the shared demo database, so the row count is not fixed.)
  await expect(
    page
      .getByRole("table", { name: "HR@K by system" })
      .getByRole("rowheader", { name: "Challenger (embedding ranker)" }),
  ).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^Hit rate by depth K/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  const figures = page.getByRole("group", { name: "Every offline figure" });
  await figures.getByLabel("Filter rows").fill("Success@10");
  const shown = await figures.getByRole("row", { name: /^challenger overall HR@10 / }).innerText();
  const id = new URL(page.url()).pathname.split("/").pop()!;

  const json = await get(page, `/api/snapshots/${id}.json`);
  expect(json.status).toBe(200);
  const doc = JSON.parse(json.text);
  expect(doc).toMatchObject({
    schema: "assay.snapshot/v1",
    kind: "offline",
    parameters: { B: 200, seed: "e2e" },
  });
  const stored = doc.result.systems.find((s: { key: string }) => s.key === "challenger").overall.measures[
    "Success@10"
  ];
  // The page shows the stored share as a percentage (whitespace, no-break included, read as one space).
  const expected = [
    "challenger",
    "overall",
    "HR@10",
    ...[stored.value, stored.ci.lower, stored.ci.upper].map((v: number) => formatRate(v)),
  ].join(" ");
  expect(shown.replace(/\s+/g, " ").trim()).toBe(expected.replace(/\s+/g, " "));
  const csv = (await get(page, `/api/snapshots/${id}.csv`)).text;
  expect(csv.split("\r\n")[0]).toBe("system_or_arm,group,measure,value,ci_lower,ci_upper");

  // The CLI, on the same database, with the same parameters: the same sha256.
  const out = execFileSync(
    process.execPath,
    [
      path.resolve("node_modules/tsx/dist/cli.mjs"),
      "scripts/cli/assay.ts",
      "snapshot",
      "create",
      "--kind",
      "offline",
      "--bootstrap",
      "200",
      "--seed",
      "e2e",
    ],
    {
      env: { ...process.env, ASSAY_DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" },
      encoding: "utf8",
    },
  );
  // Freezing is idempotent: the CLI finds the snapshot the page froze instead of making another.
  expect(out).toContain(`Snapshot ${id} (offline) already frozen`);
  expect(out).toContain(`sha256 ${doc.sha256}`);
});

/** The rows of the snapshots list that are of `subject`. */
const rowsOf = (page: Page, subject: string) =>
  page
    .getByRole("table", { name: "Snapshots" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: subject, exact: true }) });

test("a campaign's snapshot shows the figures of its live page, and a double-click freezes it once", async ({
  page,
}) => {
  // Freezing waits for the campaign's gold figures (learning curves of 1,000 draws): ~15 s of one core,
  // minutes beside a busy machine's other work. The bounds below guard against a hang, not for speed.
  test.setTimeout(300_000);
  await signIn(page, demoLogin.analyst);
  const campaign = "Reviewer relevance, autumn round";
  await page.goto("/analyst/snapshots");
  await expect(rowsOf(page, campaign)).toHaveCount(0);
  await page.goto("/analyst/experiments");
  await page.getByRole("link", { name: campaign }).first().click();
  // The page computes the campaign's figures (bootstrap, learning curve) before it shows.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(campaign, { timeout: 60_000 });
  // Every figure with its interval, as the live page draws it with the campaign's seed.
  const live = await page.getByRole("table", { name: "nDCG by system" }).innerText();
  await page.getByRole("button", { name: "Freeze snapshot" }).dblclick();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/, { timeout: 240_000 });
  expect(await page.getByRole("table", { name: "nDCG by system" }).innerText()).toBe(live);
  const id = new URL(page.url()).pathname.split("/").pop()!;

  await page.goto("/analyst/snapshots");
  await expect(rowsOf(page, campaign)).toHaveCount(1);
  const [shownId, kind, subject, created, parameters, by] = await rowsOf(page, campaign)
    .getByRole("cell")
    .allInnerTexts();
  expect([shownId, kind, subject, by]).toEqual([id, "expert", campaign, "Ana Analyst"]);
  // The list shows what the snapshot was computed with: the campaign's own seed and the page's B and K.
  expect(parameters).toBe("B 1000 · seed campaign-1 · ks [5,10,20]");
  expect(created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  // Freezing again on unchanged data opens the same snapshot and says so.
  await page.goto("/analyst/experiments");
  await page.getByRole("link", { name: campaign }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(campaign, { timeout: 60_000 });
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page).toHaveURL(new RegExp(`/analyst/snapshots/${id}\\?existing$`));
  await expect(page.getByText("These parameters were already frozen on the same data")).toBeVisible();
  await page.goto("/analyst/snapshots");
  await expect(rowsOf(page, campaign)).toHaveCount(1);
});

test("an experiment's snapshot shows the intervals of its live page; compare refuses two kinds", async ({
  page,
}) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments/reviewer-ranker-v2");
  const live = await page.getByRole("table", { name: "Arms with intervals" }).innerText();
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  expect(await page.getByRole("table", { name: "Arms with intervals" }).innerText()).toBe(live);
  const online = new URL(page.url()).pathname.split("/").pop()!;

  await page.goto("/analyst/snapshots");
  const offline = (await rowsOf(page, "offline report").first().getByRole("link").innerText()).trim();
  const refused = await page.goto(`/analyst/snapshots/compare?a=${offline}&b=${online}`);
  expect(refused?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText(
    "An offline snapshot cannot be compared with an online one; pick two of the same kind.",
  );
  await expect(page.getByRole("table", { name: "Snapshot comparison" })).toHaveCount(0);

  // The picker on a snapshot offers only its kind, each with its subject, date and author; two of a kind compare.
  await page.goto("/analyst/snapshots");
  await page.getByLabel("Seed").fill("e2e-compare");
  await page.getByLabel("Resamples").fill("200");
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  const options = await page.getByLabel("Compare with snapshot").locator("option").allInnerTexts();
  expect(
    options.some(
      (o) => o.startsWith(`#${offline} · offline · offline report · `) && o.endsWith(" · Ana Analyst"),
    ),
  ).toBe(true);
  for (const o of options)
    expect(o).toMatch(/^#\d+ · offline · offline report · \d{4}-\d\d-\d\d \d\d:\d\d UTC · /);
  await page.getByLabel("Compare with snapshot").selectOption(offline);
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByRole("heading", { name: /^Parameters: / })).toBeVisible();
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const)
  test(`at ${width} px two offline snapshots differing only in B compare by parameter and by interval`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, demoLogin.analyst);
    const ids: string[] = [];
    for (const B of ["120", "130"]) {
      await page.goto("/analyst/snapshots");
      await page.getByLabel("Resamples").fill(B);
      await page.getByLabel("Seed").fill(`only-b-${width}`);
      await page.getByRole("button", { name: "Freeze snapshot" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
      ids.push(new URL(page.url()).pathname.split("/").pop()!);
    }
    // The list shows each snapshot's parameters.
    await page.goto("/analyst/snapshots");
    const listed = page
      .getByRole("table", { name: "Snapshots" })
      .getByRole("row", { name: new RegExp(`^${ids[0]} `) });
    await expect(listed).toContainText(`B 120 · seed only-b-${width}`);

    await page.goto(`/analyst/snapshots/compare?a=${ids[0]}&b=${ids[1]}`);
    // Differing only, by default: the parameters that differ on top, B first, then the result's hash.
    const parameters = page.getByRole("table", { name: "Parameters compared" });
    await expect(parameters.getByRole("row")).toHaveCount(3);
    await expect(parameters.getByRole("row").nth(1)).toContainText(/B\s*120\s*130/);
    await expect(parameters.getByRole("row").nth(2)).toContainText("result sha256");
    // The same point estimates, other bootstrap intervals: rows that differ in their interval only.
    const overall = page.getByRole("table", { name: "Figures: overall" });
    await expect(overall).toBeVisible();
    const rows = overall.locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(0);
    await expect(rows.first()).toHaveAttribute("data-differs", "interval");
    await expect(page.locator('tr[data-differs~="value"]')).toHaveCount(0);
    await expect(page.getByRole("status")).toContainText("only in their interval");

    // Everything, on request: the unchanged parameters too (the seed, the same on both).
    await page.getByRole("link", { name: /^Show all/ }).click();
    await expect(parameters.getByRole("row", { name: /^seed / })).toBeVisible();
    await page.getByRole("link", { name: "Show differing only" }).click();
    await expect(parameters.getByRole("row", { name: /^seed / })).toHaveCount(0);
  });

test("an online snapshot opens as the experiment's dashboard, and its arms equal what `assay online` computes", async ({
  page,
}) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments/reviewer-ranker-v2");
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  await expect(page.getByRole("table", { name: "Arms with intervals" }).getByRole("row")).toHaveCount(3);
  await expect(
    page
      .getByRole("img", { name: /^Relative lift of each metric/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^Adoption rate per arm as it stood/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const doc = JSON.parse((await get(page, `/api/snapshots/${id}.json`)).text);

  // The CLI on the events exported from the same database.
  const cli = (...args: string[]) =>
    execFileSync(
      process.execPath,
      [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/cli/assay.ts", ...args],
      {
        env: { ...process.env, ASSAY_DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" },
        encoding: "utf8",
        maxBuffer: 1 << 28,
      },
    );
  const file = path.join(process.env.E2E_DATA_DIR!, "exported-events.jsonl");
  writeFileSync(file, cli("events", "export", "--experiment", "reviewer-ranker-v2"));
  const computed = JSON.parse(cli("online", "--events", file, "--control", "A", "--json"));
  for (const arm of ["A", "B"]) {
    for (const field of ["units", "sessions", "shown", "clicked", "adopted"])
      expect(doc.result.arms[arm][field]).toBe(computed.arms[arm][field]);
    for (const field of ["ctr", "adoptionRate", "meanAdoptedRank", "sessionSuccessRate"])
      expect(doc.result.arms[arm][field]).toBeCloseTo(computed.arms[arm][field], 12);
  }
});

test("the offline report's snapshot shows its live figures at the resamples and seed chosen on the page", async ({
  page,
}) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst?B=300&seed=on-screen");
  const live = await page.getByRole("table", { name: "HR@K by system" }).innerText();
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  expect(await page.getByRole("table", { name: "HR@K by system" }).innerText()).toBe(live);
  await expect(page.getByText('"B":300')).toBeVisible();
});

test("experts get 403 on snapshots and their exports", async ({ page }) => {
  await signIn(page, demoLogin.expert);
  expect((await page.goto("/analyst/snapshots"))?.status()).toBe(403);
  expect((await get(page, "/api/snapshots/1.json")).status).toBe(403);
  expect((await get(page, "/api/snapshots/1.csv")).status).toBe(403);
});
