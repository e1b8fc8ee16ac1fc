import { demoLogin, expect, signIn, test } from "./test";
import type { Browser } from "@playwright/test";

/**
 * Single sign-on in Chromium through a real OpenID Connect provider (oidc-provider, started by the
 * global setup; its development login page takes any password for a known login). An admin invites an
 * expert from a campaign's page; the invited person's first sign-in through the provider makes the
 * account and puts them on the campaign's pool.
 */
async function signInThroughProvider(browser: Browser, login: string) {
  const page = await browser.newPage();
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  return page;
}

test("an expert invited from a campaign's page signs in with the organisation's provider and joins its pool", async ({
  page,
  browser,
}) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/campaigns");
  await page.getByRole("link", { name: "Reviewer relevance, autumn round" }).click();
  const invitations = page.getByRole("region", { name: "Invitations to this campaign" });
  await invitations.getByLabel("Email").fill("Grace@Example.org");
  await invitations.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("Invited Grace@Example.org as an expert of this campaign.")).toBeVisible();
  await expect(invitations.getByRole("row", { name: /grace@example\.org expert pending/ })).toBeVisible();

  const grace = await signInThroughProvider(browser, "grace");
  await expect(grace).toHaveURL(/\/expert$/);
  await expect(grace.getByText("Grace Hopper").first()).toBeVisible();

  await page.reload();
  await expect(invitations.getByRole("row", { name: /grace@example\.org expert accepted/ })).toBeVisible();

  // Signing out ends the provider's session too: its page asks, then the browser is back at /login.
  await grace.getByRole("button", { name: "Sign out" }).click();
  await grace.getByRole("button", { name: /yes, sign me out/i }).click();
  await expect(grace).toHaveURL(/\/login$/);
});

test("a verified email with no account or invitation is refused with a clear page", async ({ browser }) => {
  const stranger = await signInThroughProvider(browser, "stranger");
  await expect(stranger.getByRole("heading", { name: "Sign-in with Test IdP did not work" })).toBeVisible();
  await expect(stranger.getByRole("alert")).toHaveText(/no Assay account or invitation for your email/);
  await stranger.goto("/expert");
  await expect(stranger).toHaveURL(/\/login/);
});
