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
