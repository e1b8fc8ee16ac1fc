import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";
import type { Page } from "@playwright/test";

let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

const AUTUMN = "Reviewer relevance, autumn round";

async function openAutumn(page: Page) {
  const [c] = await sql<{ id: number }[]>`select id from campaigns where name = ${AUTUMN}`;
  await page.goto(`/admin/campaigns/${c.id}`);
  return c.id;
}

/**
 * Records every moment the page shows a success notice beside the state it replaced: a MutationObserver
 * sees each rendered commit, so a notice that arrives before the reloaded data is caught however briefly.
 */
async function watchContradictions(page: Page, notice: string, oldBadge: string, oldButton: string) {
  await page.evaluate(
    ({ notice, oldBadge, oldButton }) => {
      const seen: string[] = [];
      (window as unknown as { contradictions: string[] }).contradictions = seen;
      const check = () => {
        const shown = [...document.querySelectorAll("[role=status]")].some((e) =>
          e.textContent?.includes(notice),
        );
        if (!shown) return;
        const badge = document.querySelector("h1 .badge")?.textContent;
        const button = [...document.querySelectorAll("main button")].some((b) => b.textContent === oldButton);
        if (badge === oldBadge || button) seen.push(`${notice} beside badge ${badge}, button ${button}`);
      };
      new MutationObserver(check).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    },
    { notice, oldBadge, oldButton },
  );
}
const contradictions = (page: Page) =>
  page.evaluate(() => (window as unknown as { contradictions: string[] }).contradictions);

/** What the dialog must say, read from the page's own progress table: experts behind and their ungraded pairs. */
async function ungradedFromTable(page: Page) {
  const cells = await page
    .getByRole("table", { name: "Progress per expert" })
    .locator("tbody tr td:last-child")
    .allInnerTexts();
  const behind = cells.map((c) => c.split("/").map((n) => Number(n.trim()))).filter(([g, t]) => g < t);
  return { experts: behind.length, pairs: behind.reduce((sum, [g, t]) => sum + t - g, 0) };
}

const audit = async (campaignId: number) =>
  (
    await sql<{ action: string }[]>`select action from audit_log where target = ${`campaign ${campaignId}`}
      and action in ('campaign.close', 'campaign.reopen') order by id`
  ).map((r) => r.action);

/** The interleaved demo experiment: stopped in the demo, so restarting and stopping it again leaves it as found. */
const INTERLEAVED = "reviewer-ranker-interleaved";
const experimentAudit = async () =>
  (
    await sql<{ action: string }[]>`select action from audit_log where target = ${`experiment ${INTERLEAVED}`}
      and action in ('experiment.stop', 'experiment.restart') order by id`
  ).map((r) => r.action);
const armOfEachUnit = async () =>
  await sql<{ unit: string; arm: number }[]>`select x.unit, x.arm_id as arm from exposures x
    join experiments e on e.id = x.experiment_id where e.key = ${INTERLEAVED} order by x.unit`;

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("closing a campaign asks first, saying who can no longer grade; Escape cancels; it can be reopened", async ({
      page,
    }) => {
      await signIn(page, demoLogin.admin);
      const id = await openAutumn(page);
      const before = await audit(id);
      const { experts, pairs } = await ungradedFromTable(page);
      expect(experts).toBeGreaterThan(0);
      const close = page.getByRole("button", { name: "Close campaign" });
      await close.click();
      const dialog = page.getByRole("dialog", { name: `Close campaign ${AUTUMN}?` });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(
        `${experts} ${experts === 1 ? "expert has" : "experts have"} ${pairs} ungraded pairs; they can no longer grade.`,
      );
      await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(close).toBeFocused();
      await expect(page.locator("h1 .badge")).toHaveText("running");
      expect(await audit(id)).toEqual(before);

      await close.click();
      await watchContradictions(page, "Closed:", "running", "Close campaign");
      await dialog.getByRole("button", { name: "Yes, close the campaign" }).click();
      await expect(page.getByRole("status")).toContainText("Closed: grades can no longer change.");
      // The notice never shows beside the old state, and the moment it shows the new state is there.
      expect(await page.locator("h1 .badge").textContent()).toBe("closed");
      expect(await contradictions(page)).toEqual([]);
      await watchContradictions(page, "Reopened:", "closed", "Reopen campaign");
      await page.getByRole("button", { name: "Reopen campaign" }).click();
      await expect(page.getByRole("status")).toContainText("Reopened: experts can grade again");
      expect(await page.locator("h1 .badge").textContent()).toBe("running");
      expect(await contradictions(page)).toEqual([]);
      expect(await audit(id)).toEqual([...before, "campaign.close", "campaign.reopen"]);
    });

    test("a stopped experiment restarts with every unit in its arm, and stopping it again asks first; both audited", async ({
      page,
    }) => {
      await signIn(page, demoLogin.admin);
      await page.goto(`/admin/experiments/${INTERLEAVED}`);
      await expect(page.locator("h1 .badge")).toHaveText("stopped");
      const before = await experimentAudit();
      const arms = await armOfEachUnit();
      expect(arms.length).toBeGreaterThan(0);
      await watchContradictions(page, "Restarted:", "stopped", "Restart experiment");
      await page.getByRole("button", { name: "Restart experiment" }).click();
      await expect(page.getByRole("status")).toContainText("Restarted:");
      expect(await page.locator("h1 .badge").textContent()).toBe("running");
      expect(await contradictions(page)).toEqual([]);
      await page.getByRole("button", { name: "Stop experiment" }).click();
      const dialog = page.getByRole("dialog", { name: `Stop experiment ${INTERLEAVED}?` });
      await expect(dialog).toBeVisible();
      await watchContradictions(page, "Stopped", "running", "Stop experiment");
      await dialog.getByRole("button", { name: "Yes, stop the experiment" }).click();
      await expect(page.getByRole("status")).toContainText("Stopped");
      expect(await page.locator("h1 .badge").textContent()).toBe("stopped");
      expect(await contradictions(page)).toEqual([]);
      expect(await experimentAudit()).toEqual([...before, "experiment.restart", "experiment.stop"]);
      // Sticky assignment: the restart kept every unit's arm.
      expect(await armOfEachUnit()).toEqual(arms);
    });

    test("without a script, Close posts, the server asks for confirmation in place, and nothing closes until confirmed", async ({
      browser,
    }) => {
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport,
        baseURL: process.env.E2E_BASE_URL,
      });
      const page = await context.newPage();
      await signIn(page, demoLogin.admin);
      const id = await openAutumn(page);
      const before = await audit(id);
      await page.getByRole("button", { name: "Close campaign" }).click();
      await expect(page.getByRole("alert")).toHaveText("Confirm closing the campaign.");
      const dialog = page.getByRole("dialog", { name: `Close campaign ${AUTUMN}?` });
      await expect(dialog).toContainText("they can no longer grade");
      await expect(page.locator("h1 .badge")).toHaveText("running");
      expect(await audit(id)).toEqual(before);
      await dialog.getByRole("button", { name: "Yes, close the campaign" }).click();
      await expect(page.locator("h1 .badge")).toHaveText("closed");
      await page.getByRole("button", { name: "Reopen campaign" }).click();
      await expect(page.locator("h1 .badge")).toHaveText("running");
      expect(await audit(id)).toEqual([...before, "campaign.close", "campaign.reopen"]);
      await context.close();
    });
  });
}
