import { demoLogin, expect, signIn, test } from "./test";

const homes = {
  admin: ["/admin", "Overview"],
  analyst: ["/analyst", "Offline report"],
  expert: ["/expert", "My assignments"],
  convener: ["/convener", "Proposals that need a committee"],
} as const;

for (const role of Object.keys(homes) as (keyof typeof homes)[]) {
  test(`${role} signs in and lands on their own home page`, async ({ page }) => {
    await signIn(page, demoLogin[role]);
    await expect(page).toHaveURL(new RegExp(`${homes[role][0]}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(homes[role][1]);
    await expect(page.getByText(role, { exact: true })).toBeVisible();
  });
}

test("another role gets a 403 page", async ({ page }) => {
  await signIn(page, demoLogin.expert);
  await expect(page).toHaveURL(/\/expert$/);
  const response = await page.goto("/admin/users");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByText("you are signed in as expert")).toBeVisible();
});

test("a signed-out visitor is sent to sign-in and back afterwards", async ({ page }) => {
  await page.goto("/admin/candidates?q=Lindqvist");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await page.getByLabel("Email").fill(demoLogin.admin);
  await page.getByLabel("Password").fill("assay-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/candidates\?q=Lindqvist$/);
  await expect(page.getByRole("heading", { name: "Candidates" })).toBeVisible();
});

test("a wrong password is refused with a clear message, and sign-out ends the session", async ({ page }) => {
  await signIn(page, demoLogin.analyst, "not-the-password", { expectFailure: true });
  await expect(page.getByRole("alert")).toHaveText("Email or password is wrong.");
  await signIn(page, demoLogin.analyst);
  await expect(page).toHaveURL(/\/analyst$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/analyst");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fanalyst$/);
});

test("responses carry security headers and the session cookie is httpOnly", async ({ page, context }) => {
  const response = await page.goto("/login");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  await signIn(page, demoLogin.admin);
  await expect(page).toHaveURL(/\/admin$/);
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-assay_session")!;
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe("Lax");
  // Fetched from the page: the Secure session cookie is withheld by Playwright's request client over http.
  const html = await page.evaluate(async () => (await fetch("/admin/users")).text());
  expect(html).toContain("admin@assay.local");
  expect(html).not.toContain("scrypt$");
});

test("sign-in never sends the browser to another site, whatever redirectTo says", async ({ page }) => {
  for (const redirectTo of ["/\t/evil.example", "//evil.example", "/\\evil.example", "/\n/x"]) {
    await page.context().clearCookies();
    await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    await page.getByLabel("Email").fill(demoLogin.admin);
    await page.getByLabel("Password").fill("assay-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/admin$/);
  }
});
