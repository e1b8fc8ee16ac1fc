import { demoLogin, expect, signIn, test } from "./test";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("under sequential intervals no one-look p stands beside a verdict read from the interval", async ({
      page,
    }) => {
      await signIn(page, demoLogin.analyst);
      await page.goto("/analyst/experiments/reviewer-ranker-v2?intervals=sequential");
      const table = page.getByRole("table", { name: "Differences vs control" });
      await expect(table.locator("thead")).toContainText("p (not shown)");
      const rows = table.locator("tbody tr");
      expect(await rows.count()).toBeGreaterThan(0);
      for (const row of await rows.all()) {
        const cells = await row.locator("td").allInnerTexts();
        // Metric, difference with its interval, lift, p, verdict.
        expect(cells[3].trim()).toBe("—");
        const [lower, upper] = cells[1]
          .split("\n")[1]
          .replace(/[[\]\s]|pp/g, "")
          .split(",")
          .map((x) => Number(x.replace("−", "-")));
        const verdict = cells[4].split("\n")[0].trim();
        // The verdict follows the interval shown: inconclusive exactly when it spans zero.
        expect(verdict === "inconclusive").toBe(lower <= 0 && upper >= 0);
      }
      // With fixed intervals the permutation p is shown as before.
      await page.goto("/analyst/experiments/reviewer-ranker-v2?intervals=fixed");
      await expect(
        page
          .getByRole("table", { name: "Differences vs control" })
          .locator("tbody tr td:nth-child(4)")
          .first(),
      ).not.toHaveText("—");
    });
  });
}
