import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";

let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 2, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

/**
 * Writes `touch` every few milliseconds until `stop` resolves: data arriving while a freeze computes.
 * The grades stand for an expert grading in another browser (the same rows and times their saves write).
 */
async function whileRunning(stop: Promise<unknown>, touch: () => Promise<unknown>) {
  let done = false;
  let writes = 0;
  const end = () => (done = true);
  void stop.then(end, end);
  while (!done) {
    await touch();
    writes++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return writes;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the offline report freezes while experts grade, and a refused freeze keeps the report and its settings", async ({
      page,
    }) => {
      // Two freezes of the offline report, each seconds of bootstrap: a guard against a hang, not a speed check.
      test.setTimeout(180_000);
      await signIn(page, demoLogin.analyst);
      const seed = `grading-${viewport.width}`;
      const report = `/analyst?B=200&seed=${seed}&stratify=subject`;
      await page.goto(report, { waitUntil: "networkidle" });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Offline report");

      // Grades change during the freeze: the offline report reads none, so it freezes.
      // Writing starts first, so the report on screen is stale and the freeze computes it afresh meanwhile.
      const frozen = page.waitForURL(/\/analyst\/snapshots\/\d+$/);
      const grading = whileRunning(
        frozen,
        () => sql`update ratings set updated_at = now() where ctid = (select ctid from ratings limit 1)`,
      );
      await page.getByRole("button", { name: "Freeze snapshot" }).click();
      await frozen;
      const grades = await grading;
      expect(grades).toBeGreaterThan(0);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);

      // An import during the freeze (a conflict's record edited) changes what it reads: refused, and the analyst stays on the report.
      await page.goto(report.replace(seed, `${seed}-b`), { waitUntil: "networkidle" });
      const refused = expect(page.getByRole("alert")).toContainText(
        "Not frozen: The data this result reads changed",
      );
      const editing = whileRunning(
        refused,
        () => sql`update conflicts set reason = reason || '.' where (proposal_id, candidate_id) =
          (select proposal_id, candidate_id from conflicts order by 1, 2 limit 1)`,
      );
      await page.getByRole("button", { name: "Freeze snapshot" }).click();
      await refused;
      await editing;
      await sql`update conflicts set reason = rtrim(reason, '.')`;
      expect(new URL(page.url()).search).toBe(`?B=200&seed=${seed}-b&stratify=subject`);
      await expect(page.getByLabel("Seed")).toHaveValue(`${seed}-b`);
      // The retry freezes the same view, now on data that holds still.
      await page.getByRole("button", { name: "Freeze again" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
    });
  });
}
