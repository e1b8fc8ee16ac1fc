import { demoLogin, expect, signIn, test } from "./test";

test("an expert grades a whole task by keyboard, reloads mid-way and finds every grade, then finishes", async ({ page }) => {
  await signIn(page, demoLogin.expert);
  const todo = page.getByRole("row", { name: /to do$/ }).first();
  const proposal = await todo.getByRole("link").innerText();
  await todo.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(proposal);
  const html = await page.content();
  for (const secret of ["baseline", "challenger", "Baseline (keyword", "cand-0"]) expect(html).not.toContain(secret);

  const cards = page.locator("section.card-to-grade");
  const total = await cards.count();
  expect(total).toBeGreaterThan(3);
  const half = Math.floor(total / 2);
  await cards.first().focus();
  for (let i = 0; i < half; i++) {
    await page.keyboard.press("3");
    await expect(page.getByRole("status", { name: `Save state of ${await cards.nth(i).getAttribute("aria-label")}` })).toHaveText("Saved");
  }
  await expect(page.getByText(`${half} of ${total} graded`)).toBeVisible();

  await page.reload();
  await expect(page.getByText(`${half} of ${total} graded`)).toBeVisible();
  for (let i = 0; i < half; i++) {
    const alias = (await cards.nth(i).getAttribute("aria-label"))!;
    await expect(page.getByRole("radiogroup", { name: alias }).getByLabel("3 — Relevant")).toBeChecked();
  }
  await expect(page.getByRole("button", { name: "Finish" })).toBeDisabled();

  // The rest: k moves back up, j down; 4 grades and moves on; 0 marks can't judge.
  await cards.nth(half).focus();
  await page.keyboard.press("k");
  await expect(cards.nth(half - 1)).toBeFocused();
  await page.keyboard.press("j");
  await expect(cards.nth(half)).toBeFocused();
  await page.keyboard.press("0");
  await page.keyboard.press("j");
  for (let i = half + 1; i < total; i++) await page.keyboard.press("4");
  const last = (await cards.nth(total - 1).getAttribute("aria-label"))!;
  await expect(page.getByRole("status", { name: `Save state of ${last}` })).toHaveText("Saved");
  await expect(page.getByText(`${total} of ${total} graded`)).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: (await cards.nth(half).getAttribute("aria-label"))! }).getByLabel("Can't judge")).toBeChecked();
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/expert$/);
  await expect(page.getByRole("row", { name: new RegExp(proposal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) })).toContainText("finished");
});
