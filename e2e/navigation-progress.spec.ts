import { demoLogin, expect, signIn, test } from "./test";

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const)
  test(`at ${width} px a slow in-app navigation shows a progress bar and marks the page busy`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, demoLogin.convener);
    await page.goto("/convener");
    // Hold the next page's data until the old page has been checked, so the wait is as long as we need.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/_data=/, async (route) => {
      await held;
      await route.continue();
    });
    const top = await page.getByRole("heading", { level: 1 }).boundingBox();
    await page.getByRole("link", { name: "prop-0001", exact: true }).click();
    await expect(page.getByRole("progressbar", { name: "Loading the page" })).toBeVisible();
    await expect(page.locator("main")).toHaveAttribute("aria-busy", "true");
    // The bar is laid over the page: the old page's heading has not moved.
    expect(await page.getByRole("heading", { level: 1 }).boundingBox()).toEqual(top);
    release();
    await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.locator("main")).not.toHaveAttribute("aria-busy");
  });
