import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "assay-demo";
export const demoLogin = {
  admin: "admin@assay.local",
  analyst: "analyst@assay.local",
  expert: "expert@assay.local",
  convener: "convener@assay.local",
} as const;

/** The server's address is only known once global setup has started it. */
export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});

/** Signs in and waits until the app has left the sign-in page (unless the attempt is meant to fail). */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  options: { expectFailure?: boolean } = {},
) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (options.expectFailure) await expect(page.getByRole("alert")).toBeVisible();
  else await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

export { expect };
