import path from "node:path";
import { demoLogin, expect, signIn, test } from "./test";

const fixture = (name: string) => path.resolve("e2e/fixtures", name);

async function upload(page: import("@playwright/test").Page, entity: string, file: string) {
  await page.goto("/admin/import");
  await page.getByLabel("What the file holds").selectOption(entity);
  await page.getByLabel("File (.csv or .jsonl)").setInputFiles(fixture(file));
  await page.getByRole("button", { name: "Import" }).click();
}

test("an admin imports files; a file with bad rows lists them and writes nothing", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  for (const [entity, file, expected] of [
    ["subjects", "subjects.csv", "2 added"],
    ["proposals", "proposals.csv", "2 added"],
    ["candidates", "candidates.csv", "4 added"],
    ["systems", "systems.csv", "2 added"],
  ] as const) {
    await upload(page, entity, file);
    await expect(page.getByRole("status")).toContainText(expected);
  }

  await upload(page, "lists", "lists-bad.csv");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Nothing was imported: 4 problems in lists-bad.csv");
  await expect(
    alert.getByRole("row", { name: /^3 rank 1 in list bm25 \/ P-100 \/ default repeats line 2$/ }),
  ).toBeVisible();
  await expect(alert.getByRole("row", { name: /^4 unknown proposal P-999$/ })).toBeVisible();
  await expect(alert.getByRole("row", { name: /^5 score must be a number$/ })).toBeVisible();
  await expect(alert.getByRole("row", { name: /^6 rank must be a number$/ })).toBeVisible();
  await page.goto("/admin/systems");
  await expect(page.getByRole("row", { name: /^bm25 Keyword baseline 1.0 — 0 0 0 0$/ })).toBeVisible();

  await upload(page, "lists", "lists.csv");
  await expect(page.getByRole("status")).toContainText("11 added, 0 updated, 0 unchanged (5 new lists)");
  await upload(page, "lists", "lists.csv");
  await expect(page.getByRole("status")).toContainText("0 added, 0 updated, 11 unchanged");
  await upload(page, "gold", "gold.csv");
  await expect(page.getByRole("status")).toContainText("2 added");

  await page.goto("/admin/lists?q=P-101&sort=variant&dir=desc");
  const lists = page.getByRole("table");
  await expect(lists.getByRole("row")).toHaveCount(4);
  await expect(lists.getByRole("row").nth(1)).toHaveText(/^denseP-101short-query21/);

  await page.goto("/admin/proposals?q=P-10");
  await page.getByRole("link", { name: "P-101" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Cryo-EM of membrane proteins");
  const dense = page.getByRole("region", { name: "dense list" });
  const bm25 = page.getByRole("region", { name: "bm25 list" });
  await expect(dense.getByRole("row").nth(1)).toContainText("Chen Wang");
  await expect(dense.getByRole("row").nth(1)).toContainText("(gold member)");
  await expect(bm25.getByRole("row").nth(2)).toContainText("Chen Wang");
  await expect(bm25.getByRole("row").nth(1)).not.toContainText("gold member");
  await page.getByLabel("Query variant").selectOption("short-query");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("region", { name: "dense list" }).getByRole("row").nth(1)).toContainText(
    "Dara Okafor",
  );
});

test("the upload form says what is missing", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/import");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Choose a CSV or JSONL file to import.")).toBeVisible();
});

/** A candidates CSV of `n` rows, made in the test (the big one is what makes an import take a while). */
const candidates = (n: number, from = 0) => ({
  name: `candidates-${n}.csv`,
  mimeType: "text/csv",
  buffer: Buffer.from(
    ["external_id,name", ...Array.from({ length: n }, (_, i) => `E2E-${from + i},Person ${from + i}`)].join(
      "\n",
    ),
  ),
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the page keeps what the file holds, says 1 row, and a long import shows progress and cancels", async ({
      page,
    }) => {
      await signIn(page, demoLogin.admin);
      await page.goto("/admin/import");
      const entity = page.getByLabel("What the file holds");
      await entity.selectOption("candidates");
      const first = viewport.width * 10;
      await page.getByLabel("File (.csv or .jsonl)").setInputFiles(candidates(1, first));
      await page.getByRole("button", { name: "Import" }).click();
      await expect(page.getByRole("status")).toContainText("1 row of candidates: 1 added");
      await expect(entity).toHaveValue("candidates");

      // The next import right after a success: no raw enum, the old notice replaced.
      await page.getByLabel("File (.csv or .jsonl)").setInputFiles(candidates(1, first));
      await page.getByRole("button", { name: "Import" }).click();
      await expect(page.getByRole("status")).toContainText(
        "1 row of candidates: 0 added, 0 updated, 1 unchanged",
      );
      await expect(page.getByText(/must be one of/)).toHaveCount(0);

      await page.getByLabel("File (.csv or .jsonl)").setInputFiles(candidates(300_000, first + 1));
      await page.getByRole("button", { name: "Import" }).click();
      const progress = page.getByRole("region", { name: /^Importing candidates-300000.csv/ });
      await expect(progress.getByRole("status")).toContainText(
        /[\d,]+ rows read \(\d+% of the file\), 0 problems so far/,
      );
      await progress.getByRole("button", { name: "Cancel import" }).click();
      await expect(page.getByRole("alert")).toContainText(
        /The import of candidates-300000.csv was cancelled after [\d,]+ rows?: nothing was written/,
      );
      await page.goto(`/admin/candidates?q=E2E-${first + 1}`);
      await expect(page.getByText(`E2E-${first + 1}`, { exact: true })).toHaveCount(0);
    });
  });
}
