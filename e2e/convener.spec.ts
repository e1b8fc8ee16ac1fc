import { demoLogin, expect, signIn, test } from "./test";

test("a convener builds a committee and the experiment page shows it in their arm", async ({ page, browser }) => {
  const admin = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(admin, demoLogin.admin);
  await admin.goto("/admin/experiments/reviewer-ranker-v2");
  // The events cell of each arm's row (after exposed units, units with sessions and sessions).
  const eventsOf = async () =>
    Promise.all(
      ["A", "B"].map(async (arm) =>
        Number((await admin.locator(`tr[data-arm="${arm}"] td`).nth(3).innerText()).replace(/,/g, "")),
      ),
    );
  const [a0, b0] = await eventsOf();

  await signIn(page, demoLogin.convener);
  await expect(page.getByRole("table", { name: "My proposals" }).getByRole("row")).toHaveCount(11);
  await page.getByRole("link", { name: "prop-0003" }).click();
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  const names = await page.getByRole("heading", { name: "Recommended reviewers" }).locator("xpath=..").getByRole("listitem").getByRole("link").allInnerTexts();
  expect(names.length).toBeGreaterThan(4);

  for (const name of names.slice(0, 2)) {
    await page.getByRole("link", { name, exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await page.goBack();
  }
  for (const name of names.slice(0, 3)) {
    await page.getByRole("button", { name: `Adopt ${name}` }).first().click();
    await expect(page.getByRole("button", { name: `Remove ${name}` }).first()).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Committee (3 of 5)" })).toBeVisible();
  await page.getByRole("button", { name: `Remove ${names[1]}` }).first().click();
  await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Committee members" }).getByRole("listitem")).toHaveText([names[0], names[2]]);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/convener$/);
  await expect(page.getByRole("row", { name: /prop-0003/ })).toContainText("finished");

  // The convener's events: 3 impressions (open, and back twice), 2 clicks, 3 adopts, 1 unadopt = 9, all in one arm.
  await admin.reload();
  const [a1, b1] = await eventsOf();
  expect([a1 - a0, b1 - b0].sort()).toEqual([0, 9]);
});

test("a convener cannot open a proposal that is not theirs", async ({ page }) => {
  await signIn(page, demoLogin.convener);
  const response = await page.goto("/convener/proposals/prop-0150");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Proposal prop-0150 is not assigned to you.")).toBeVisible();
});

test("an admin creates and revokes an API key; the revoked key gets 401", async ({ page, request }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/experiments/reviewer-ranker-v2");
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = (await page.getByRole("status").locator("code").innerText()).trim();
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const ok = await request.post(`${process.env.E2E_BASE_URL}/api/events`, { headers, data: { events: [] } });
  expect(ok.status()).toBe(200);
  await page.getByRole("button", { name: `Revoke ${key.slice(0, 12)}…` }).click();
  await expect(page.getByRole("button", { name: `Revoke ${key.slice(0, 12)}…` })).toHaveCount(0);
  const refused = await request.post(`${process.env.E2E_BASE_URL}/api/events`, { headers, data: { events: [] } });
  expect(refused.status()).toBe(401);
});
