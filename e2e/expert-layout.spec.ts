import { demoLogin, expect, signIn, test } from "./test";
import type { Page, TestInfo } from "@playwright/test";

/** Grading layout: compact cards on a laptop screen, and nothing wider than a phone at 390 px. */

async function shoot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`) });
}

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("at 1440×900 six cards fit one screen; Next task opens the first unfinished assignment", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demoLogin.expert);
  await shoot(page, info, "home-1440");
  const next = page.getByRole("link", { name: /^Next task: / });
  const proposal = (await next.innerText()).replace(/^Next task: /, "");
  await next.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(proposal);
  const cards = page.locator("section.grade-card");
  await expect(cards.nth(6)).toBeAttached();
  const top = (await cards.nth(0).boundingBox())!.y;
  const bottom = await cards
    .nth(5)
    .boundingBox()
    .then((b) => b!.y + b!.height);
  expect(bottom - top).toBeLessThanOrEqual(900);
  await cards.nth(0).scrollIntoViewIfNeeded();
  await shoot(page, info, "task-1440");
  expect(await sideways(page)).toBe(0);
});

test("at 390×844 neither the home nor a task scrolls sideways", async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demoLogin.expert);
  expect(await sideways(page)).toBe(0);
  await shoot(page, info, "home-390");
  await page.getByRole("link", { name: /^Next task: / }).click();
  await expect(page.locator("section.grade-card").first()).toBeVisible();
  expect(await sideways(page)).toBe(0);
  await shoot(page, info, "task-390");
});
