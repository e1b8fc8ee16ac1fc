import { demoLogin, expect, signIn, test } from "./test";

test("an admin creates and launches a campaign, sees progress and agreement", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/campaigns");
  await expect(page.getByRole("table", { name: "Campaigns" }).getByRole("row")).toHaveCount(2);
  await page.getByRole("link", { name: "Reviewer relevance, autumn round" }).click();
  await expect(page.getByText(/Krippendorff's α \(ordinal\) = 0\.[67]\d\d/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Progress per expert" }).getByRole("row")).toHaveCount(4);

  await page.goto("/admin/campaigns");
  await page.getByLabel("Name", { exact: true }).fill("Small round");
  await page.getByLabel("Raters per proposal").fill("2");
  await page.getByLabel("Proposals").selectOption({ label: "Subject: Ecology" });
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("alert")).toContainText("invite at least one expert");
  await page.getByLabel("Name", { exact: true }).fill("Small round");
  await page.getByLabel("Raters per proposal").fill("2");
  await page.getByLabel("Experts invited").selectOption(["expert@assay.local", "expert2@assay.local"]);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Small round");
  await page.getByRole("button", { name: "Launch campaign" }).click();
  await expect(page.getByRole("status")).toContainText(/Launched: \d+ pairs to grade, 50 assignments/);
  await expect(page.getByRole("table", { name: "Progress per expert" }).getByRole("row")).toHaveCount(3);
});

test("an admin adjudicates a disagreement and downloads the qrels", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/campaigns");
  await page.getByRole("link", { name: "Reviewer relevance, autumn round" }).click();
  await expect(page.getByRole("table", { name: "Results by system" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("table", { name: "Label learning curve" }).getByRole("row")).toHaveCount(4);
  const queue = page.getByRole("table", { name: "Disagreement queue" });
  const first = queue.getByRole("form").first();
  await first.getByLabel("Final grade").selectOption("4");
  await first.getByLabel("Note").fill("Checked the profile");
  await first.getByRole("button", { name: "Adjudicate" }).click();
  await expect(page.getByRole("status")).toHaveText("Adjudicated: the final grade replaces the median for this pair.");
  await expect(queue.getByRole("form").first().getByRole("button", { name: "Change" })).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "TREC qrels" }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const lines = text.trim().split("\n");
  expect(lines.length).toBeGreaterThan(100);
  for (const line of lines) expect(line).toMatch(/^prop-\d{4} 0 cand-\d{4} [0-3]$/);
});
