import fs from "node:fs/promises";
import { demoLogin, expect, signIn, test } from "./test";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the analyst's campaign page links its qrels, CSV and JSON, which download", async ({ page }) => {
      await signIn(page, demoLogin.analyst);
      await page.goto("/analyst/experiments");
      await page.getByRole("link", { name: "Reviewer relevance, autumn round" }).first().click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Reviewer relevance, autumn round");
      const bodies: Record<string, string> = {};
      for (const name of ["TREC qrels", "per-rater CSV", "JSON"]) {
        const link = page.getByRole("link", { name, exact: true });
        await expect(link).toBeVisible();
        const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
        bodies[name] = await fs.readFile((await download.path())!, "utf8");
      }
      // qrels: "proposal 0 candidate grade" lines; CSV: a header; JSON: a document.
      expect(bodies["TREC qrels"].split("\n")[0]).toMatch(/^\S+ 0 \S+ \d$/);
      expect(bodies["per-rater CSV"].split(/\r?\n/)[0]).toContain(",");
      expect(() => JSON.parse(bodies.JSON)).not.toThrow();
    });
  });
}
