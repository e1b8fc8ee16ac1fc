import { expect, signIn, test, demoLogin } from "./test";

// With no SMTP_URL the mail goes to .data/outbox and the admin page shows its link: follow it.
test("an invited person follows the link, sets name and password, and signs in", async ({
  page,
  browser,
}) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/users/invitations");
  const email = `invited-${Date.now()}@example.org`;
  await page.getByLabel("Email").fill(email);
  await page.getByRole("checkbox", { name: "expert" }).check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  const link = await page.locator("code").textContent();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
  // Invited from this page, not from a campaign's: the list says it is for the whole organisation.
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: email, exact: true }) });
  await expect(row.getByRole("cell", { name: "Organisation-wide" })).toBeVisible();

  const guest = await browser.newPage();
  await guest.goto(new URL(link!).pathname);
  await guest.getByLabel("Your name").fill("Invited Person");
  await guest.getByLabel("Password (at least 12 characters)").fill("violet-harbour-lantern-7");
  await guest.getByLabel("Repeat the password").fill("violet-harbour-lantern-7");
  await guest.getByRole("button", { name: "Create my account" }).click();
  await expect(guest.getByText("Your account is ready")).toBeVisible();

  await guest.goto(new URL(link!).pathname);
  await expect(guest.getByRole("heading", { name: "This invitation link does not work" })).toBeVisible();
  await signIn(guest, email, "violet-harbour-lantern-7");
  await expect(guest).toHaveURL(/\/expert/);
});
