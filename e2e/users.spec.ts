import { demoLogin, expect, signIn, test } from "./test";

test("an admin creates, edits, deactivates and re-passwords a user", async ({ page, browser }) => {
  // Many steps, each a round trip with scrypt at sign-in: a loaded machine needs more than the default limit.
  test.setTimeout(180_000);
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/users");
  await page.getByLabel("Name", { exact: true }).fill("Nora Newexpert");
  await page.getByLabel("Email", { exact: true }).fill("nora@example.org");
  await expect(page.getByRole("group", { name: "Roles" }).getByLabel("expert")).toBeChecked();
  await page.getByLabel("Initial password").fill("short");
  // Subjects are a searchable checkbox list: typing narrows it, ticking needs no Ctrl-click.
  const subjects = page.getByRole("group", { name: "Subjects of expertise (experts)" });
  await subjects.getByRole("searchbox").fill("eco");
  await expect(subjects.getByRole("checkbox")).toHaveCount(2);
  await subjects.getByLabel("Ecology").check();
  await subjects.getByLabel("Economics").check();
  await subjects.getByRole("searchbox").fill("");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText("Use at least 12 characters")).toBeVisible();
  await page.getByLabel("Initial password").fill("nora-password-1");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status")).toHaveText("Created Nora Newexpert (nora@example.org).");

  await page.getByLabel("Name", { exact: true }).fill("Dup");
  await page.getByLabel("Email", { exact: true }).fill("NORA@example.org");
  await page.getByLabel("Initial password").fill("nora-password-1");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText("A user with the email NORA@example.org already exists.")).toBeVisible();

  const other = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(other, "nora@example.org", "nora-password-1");
  await expect(other).toHaveURL(/\/expert$/);

  await page.getByRole("link", { name: "Nora Newexpert" }).click();
  const chosen = page.getByRole("group", { name: "Subjects of expertise (experts)" });
  await expect(chosen.getByRole("checkbox", { checked: true })).toHaveCount(2);
  await expect(chosen.getByLabel("Ecology")).toBeChecked();
  await expect(chosen.getByLabel("Economics")).toBeChecked();
  const sessions = page.getByRole("region", { name: "Sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(2);
  await expect(sessions.getByRole("row").nth(1)).toContainText("127.0.0.1");
  await sessions.getByRole("button", { name: "End all sessions" }).click();
  await expect(page.getByRole("dialog", { name: "End all sessions?" })).toContainText(
    "The 1 live session ends",
  );
  await page.getByRole("button", { name: "Yes, end all sessions" }).click();
  await expect(page.getByRole("status")).toHaveText("Ended 1 session of Nora Newexpert.");
  await expect(sessions.getByText("Not signed in anywhere.")).toBeVisible();
  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  await signIn(other, "nora@example.org", "nora-password-1");
  await expect(other).toHaveURL(/\/expert$/);

  const roles = page.getByRole("group", { name: "Roles" });
  await roles.getByLabel("expert").uncheck();
  await roles.getByLabel("analyst").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Saved. Nora Newexpert is signed out and signs in again as analyst.",
  );
  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  await signIn(other, "nora@example.org", "nora-password-1");
  await expect(other).toHaveURL(/\/analyst$/);

  await page.getByRole("button", { name: "Deactivate Nora Newexpert" }).click();
  await page.getByRole("button", { name: "Yes, deactivate Nora Newexpert" }).click();
  await expect(page.getByRole("status")).toHaveText("Nora Newexpert is deactivated and signed out.");
  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  await signIn(other, "nora@example.org", "nora-password-1", { expectFailure: true });
  await expect(other.getByRole("alert")).toHaveText(
    "This account is deactivated. Ask an admin to reactivate it.",
  );

  await page.getByRole("button", { name: "Reactivate Nora Newexpert" }).click();
  await page.getByLabel("New password").fill("another-password-2");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "New password set. Nora Newexpert is signed out everywhere.",
  );
  await signIn(other, "nora@example.org", "another-password-2");
  await expect(other).toHaveURL(/\/analyst$/);
});

test("an admin cannot remove their own admin access", async ({ page }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/users?q=admin%40assay");
  await page.getByRole("link", { name: "Alex Admin" }).click();
  await page.getByRole("button", { name: "Deactivate Alex Admin" }).click();
  await page.getByRole("button", { name: "Yes, deactivate Alex Admin" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "You cannot remove your own admin access; ask another admin.",
  );
});

test("a person with two roles reaches both homes", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/users");
  await page.getByLabel("Name", { exact: true }).fill("Tess Tworoles");
  await page.getByLabel("Email", { exact: true }).fill("tess@example.org");
  const roles = page.getByRole("group", { name: "Roles" });
  await roles.getByLabel("analyst").check();
  await page.getByLabel("Initial password").fill("tess-password-17");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status")).toHaveText("Created Tess Tworoles (tess@example.org).");
  await expect(page.getByRole("row", { name: /Tess Tworoles/ })).toContainText("analyst, expert");

  const tess = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(tess, "tess@example.org", "tess-password-17");
  await expect(tess).toHaveURL(/\/analyst$/);
  const nav = tess.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "My assignments" }).click();
  await expect(tess).toHaveURL(/\/expert$/);
});
