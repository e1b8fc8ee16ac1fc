import { readFileSync } from "node:fs";
import { demoLogin, expect, signIn, test } from "./test";

test("an admin's write appears in the audit log, which filters and exports it without the key", async ({
  page,
}) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/experiments/reviewer-ranker-v2");
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = (await page.getByRole("status").locator("code").innerText()).trim();
  expect(key).toMatch(/^assay_/);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  await page.getByLabel("What").selectOption("experiment.key.create");
  await page.getByLabel("Who").selectOption("Alex Admin <admin@assay.local>");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/what=experiment\.key\.create/);
  const row = page.getByRole("row", { name: /experiment\.key\.create/ }).first();
  await expect(row).toContainText("Alex Admin <admin@assay.local>");
  await expect(row).toContainText(`prefix: ${key.slice(0, 12)}`);
  expect(await page.content()).not.toContain(key);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe("id,at,actor,action,target,detail");
  expect(csv).toContain("Alex Admin <admin@assay.local>,experiment.key.create,experiment reviewer-ranker-v2");
  expect(csv).not.toContain(key);

  await page.goto("/admin/audit?from=2026-02-31");
  await expect(page.getByRole("alert")).toHaveText(
    "The filters were not understood: from is not a date in the calendar.",
  );
});
