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

    test("the offline report freezes while experts grade, and a failed freeze keeps the report and its settings", async ({
      page,
    }) => {
      // Two freezes of the offline report, each seconds of bootstrap: a guard against a hang, not a speed check.
      test.setTimeout(180_000);
      await signIn(page, demoLogin.analyst);
      const seed = `grading-${viewport.width}`;
      const report = `/analyst?B=200&seed=${seed}&stratify=subject`;
      await page.goto(report, { waitUntil: "networkidle" });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Offline report");

      // Grades change during the freeze, and the report's ground-truth section reads them: it still freezes,
      // on the grades as they were when it read its inputs (all in one transaction).
      // Writing starts first, so the report on screen is stale and the freeze computes it afresh meanwhile.
      const frozen = page.waitForURL(/\/analyst\/snapshots\/\d+$/);
      const grading = whileRunning(
        frozen,
        () => sql`update ratings set updated_at = now() where ctid = (select ctid from ratings limit 1)`,
      );
      // The freeze goes to its snapshot without computing the report on screen again on the new grades first.
      const reloads: string[] = [];
      const reloaded = (r: { url(): string }) => {
        if (new URL(r.url()).searchParams.get("_data") === "routes/analyst._index") reloads.push(r.url());
      };
      page.on("request", reloaded);
      await page.getByRole("button", { name: "Freeze snapshot" }).click();
      await frozen;
      page.off("request", reloaded);
      expect(reloads).toEqual([]);
      const grades = await grading;
      expect(grades).toBeGreaterThan(0);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);

      // When the freeze fails all the same (here the database refuses to store it), the analyst stays on the
      // report with every setting, and can retry.
      await page.goto(report.replace(seed, `${seed}-b`), { waitUntil: "networkidle" });
      await sql`alter table snapshots add constraint e2e_refuse_freeze check (false) not valid`;
      try {
        await page.getByRole("button", { name: "Freeze snapshot" }).click();
        await expect(page.getByRole("alert")).toContainText(
          "Not frozen: The snapshot could not be stored just now; nothing was frozen.",
        );
      } finally {
        await sql`alter table snapshots drop constraint if exists e2e_refuse_freeze`;
      }
      expect(new URL(page.url()).search).toBe(`?B=200&seed=${seed}-b&stratify=subject`);
      await expect(page.getByLabel("Seed")).toHaveValue(`${seed}-b`);
      // The retry freezes the same view.
      await page.getByRole("button", { name: "Freeze again" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
    });
  });
}
