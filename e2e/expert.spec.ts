import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";
import type { Page } from "@playwright/test";

/**
 * Grading, item 1 of issue 12: saves never lose work (a queue in localStorage, retried until they land,
 * also across a reload) and the task flows by keyboard from the first load. Each test takes the first
 * assignment still "to do", so each works on its own proposal.
 */
let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

async function openFirstToDo(page: Page) {
  await signIn(page, demoLogin.expert);
  const todo = page.getByRole("row", { name: /^to do/ }).first();
  const proposal = await todo.getByRole("link").innerText();
  await todo.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(proposal);
  const cards = page.locator("section.grade-card");
  await expect(cards.first()).toBeFocused();
  return { proposal, cards, assignment: Number(new URL(page.url()).pathname.split("/").pop()) };
}

const pressed = (page: Page, alias: string) =>
  page.getByRole("group", { name: `Grade for ${alias}` }).locator('button[aria-pressed="true"]');
const saveState = (page: Page, alias: string) => page.getByRole("status", { name: `Save state of ${alias}` });

async function storedGrade(assignment: number, item: number) {
  const rows = await sql<
    { grade: number | null }[]
  >`select grade from ratings where assignment_id = ${assignment} and item_id = ${item}`;
  return rows.length === 0 ? undefined : rows[0].grade;
}

test("keys work from the first load, arrows only move, a reload focuses the first ungraded card, Finish happens once", async ({
  page,
}, info) => {
  const { proposal, cards } = await openFirstToDo(page);
  const html = await page.content();
  for (const secret of ["baseline", "challenger", "Baseline (keyword", "cand-0"])
    expect(html).not.toContain(secret);
  await expect(page.getByText("Campaign instructions")).toBeVisible();
  const total = await cards.count();
  expect(total).toBeGreaterThan(3);
  const alias = async (i: number) => (await cards.nth(i).getAttribute("aria-label"))!;

  // Pressing 3 at once grades the focused first card and moves on.
  await page.keyboard.press("3");
  await expect(pressed(page, await alias(0))).toHaveText(/Relevant/);
  await expect(cards.nth(1)).toBeFocused();
  await expect(saveState(page, await alias(0))).toHaveText("Saved");

  // Arrows move between cards, from the card and from inside its grade buttons, and never grade.
  await page.keyboard.press("ArrowDown");
  await expect(cards.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(cards.nth(1)).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(
    page
      .getByRole("group", { name: `Grade for ${await alias(1)}` })
      .getByRole("button")
      .first(),
  ).toBeFocused();
  for (const key of ["ArrowDown", "ArrowUp", "ArrowRight", "ArrowLeft"]) await page.keyboard.press(key);
  await expect(pressed(page, await alias(1))).toHaveCount(0);
  await expect(pressed(page, await alias(2))).toHaveCount(0);
  await expect(page.getByText(`1 of ${total} graded`)).toBeVisible();

  // The rationale counts, and text over the limit is cut in the open.
  const rationale = page.getByLabel(`Rationale for ${await alias(0)} (optional)`);
  await rationale.fill("x".repeat(2500));
  await expect(page.getByRole("alert")).toHaveText(
    "The text was 2,500 characters; only the first 2,000 are kept.",
  );
  await expect(cards.nth(0)).toContainText("2,000 / 2,000");

  const half = Math.floor(total / 2);
  await cards.nth(1).focus();
  for (let i = 1; i < half; i++) await page.keyboard.press("2");
  await expect(saveState(page, await alias(half - 1))).toHaveText("Saved");
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toHaveText("Every grade is saved.");
  await page.reload();
  await expect(cards.nth(half)).toBeFocused();
  await expect(page.getByText(`${half} of ${total} graded`)).toBeVisible();
  for (let i = 1; i < half; i++) await expect(pressed(page, await alias(i))).toHaveText(/Far-fetched/);
  await expect(page.getByRole("button", { name: "Finish" })).toBeDisabled();

  await page.keyboard.press("0");
  for (let i = half + 1; i < total; i++) await page.keyboard.press("4");
  await expect(saveState(page, await alias(total - 1))).toHaveText("Saved");
  await expect(pressed(page, await alias(half))).toHaveText(/Can't judge/);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/expert\?finished=\d+$/);
  await expect(page.getByRole("status")).toContainText(`Finished “${proposal}”`);
  await expect(
    page.getByRole("row", { name: new RegExp(proposal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }),
  ).toContainText("done");
  await page.screenshot({ path: info.outputPath("home-after-finish.png") });

  // Back shows the finished state, with no Finish to press again.
  await page.goBack();
  await expect(page.getByRole("note")).toContainText("Finished on");
  await expect(page.getByRole("button", { name: "Finish" })).toHaveCount(0);
  await page.getByRole("note").scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath("task-finished.png") });
});

test("a grade given with the network cut is kept, retried, and lands when the network is back", async ({
  page,
  context,
}, info) => {
  const { cards, assignment } = await openFirstToDo(page);
  const alias = (await cards.first().getAttribute("aria-label"))!;
  const item = Number(await cards.first().getAttribute("data-card"));
  await context.setOffline(true);
  await page.keyboard.press("4");
  await expect(saveState(page, alias)).toHaveText(/^Not saved, retrying/);
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toContainText("1 grade not saved yet");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  expect(await storedGrade(assignment, item)).toBeUndefined();
  await page.screenshot({ path: info.outputPath("task-offline.png") });

  await context.setOffline(false);
  await expect(saveState(page, alias)).toHaveText("Saved", { timeout: 20_000 });
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toHaveText("Every grade is saved.");
  expect(await storedGrade(assignment, item)).toBe(4);

  // A server error is retried the same way, and the page stays.
  let failures = 0;
  await page.route(/_data=routes/, (route) =>
    route.request().method() === "POST" && failures++ === 0
      ? route.fulfill({ status: 503, body: "" })
      : route.continue(),
  );
  const second = (await cards.nth(1).getAttribute("aria-label"))!;
  await page.keyboard.press("2");
  await expect(saveState(page, second)).toHaveText("Saved");
  expect(failures).toBeGreaterThan(1);
  expect(await storedGrade(assignment, Number(await cards.nth(1).getAttribute("data-card")))).toBe(2);
});

test("grades queued while saves fail survive a reload, show as chosen, and land; Finish waits for them", async ({
  page,
}) => {
  test.setTimeout(120_000); // the retries back off: up to 16 s between attempts after a long cut
  const { cards, assignment } = await openFirstToDo(page);
  const total = await cards.count();
  // Every save fails as if the connection dropped; pages still load.
  const cut = (route: import("@playwright/test").Route) =>
    route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue();
  await page.route(/_data=routes/, cut);
  for (let i = 0; i < total; i++) await page.keyboard.press("1");
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toContainText(
    `${total} grades not saved yet`,
  );
  await expect(page.getByRole("button", { name: "Finish" })).toBeDisabled();
  await expect(page.getByText("Finish waits until every grade is saved.")).toBeVisible();

  await page.reload();
  await expect(page.getByText(`${total} of ${total} graded`)).toBeVisible();
  const first = (await cards.first().getAttribute("aria-label"))!;
  await expect(pressed(page, first)).toHaveText(/Irrelevant/);
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toContainText(
    `${total} grades not saved yet`,
  );
  expect((await sql`select 1 from ratings where assignment_id = ${assignment}`).length).toBe(0);
  await expect(page.getByRole("button", { name: "Finish" })).toBeDisabled();

  await page.unroute(/_data=routes/, cut);
  await expect(page.getByRole("status", { name: "Unsaved grades" })).toHaveText("Every grade is saved.", {
    timeout: 40_000,
  });
  await expect(page.getByRole("button", { name: "Finish" })).toBeEnabled();
  const [{ n }] = await sql<
    { n: number }[]
  >`select count(*)::int as n from ratings where assignment_id = ${assignment} and grade = 1`;
  expect(n).toBe(total);
});
