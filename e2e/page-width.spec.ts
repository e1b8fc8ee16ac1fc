import { demoLogin, expect, signIn, test } from "./test";
import { testEveryPage } from "./pages";

/**
 * No page scrolls sideways on a phone (390 px, an iPhone 12–15): wide tables scroll inside their own
 * box, charts draw at the width they are given, the navigation folds into a menu.
 */
testEveryPage({ width: 390, height: 844 }, async (page, _entry, path) => {
  const { scrollWidth, wide } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The outermost elements that stick out, to say what to fix when the check fails.
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter(
        (el) =>
          el.getBoundingClientRect().right > width + 1 &&
          !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1),
      )
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""} (${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, wide };
  });
  expect(
    scrollWidth,
    `${path} is ${scrollWidth} px wide at 390 px; sticking out: ${wide.join(", ")}`,
  ).toBeLessThanOrEqual(390);
  const { small, wrapped } = await page.evaluate(phoneLayoutProblems);
  // Grade buttons, row actions and every other button a thumb presses: at least 44 px tall (WCAG 2.5.5).
  expect(small, `${path}: buttons under 44 px tall at 390 px`).toEqual([]);
  // An id ("prop-0001") or an interval ("[10.1%, 14.2%]") in a table reads on one line, never split.
  expect(wrapped, `${path}: ids or intervals broken over lines at 390 px`).toEqual([]);
});

/**
 * In the browser: the visible buttons of the page's main part shorter than 44 px, and the ids and
 * intervals in table cells whose text lies on more than one line (a Range over the text has line boxes
 * at more than one height).
 */
function phoneLayoutProblems() {
  const main = document.querySelector("main") ?? document.body;
  const small = [...main.querySelectorAll<HTMLElement>("button")]
    .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().height < 43.5)
    .slice(0, 5)
    .map((b) => `"${b.innerText.trim().slice(0, 30)}" ${Math.round(b.getBoundingClientRect().height)} px`);
  const ID = /^[A-Za-z][\w.]*-[\w.-]*\d[\w.-]*$/;
  // "[10.1%, 14.2%]", "[+0.031, +0.066]": two bounds, no quotes or braces (a JSON array is no interval).
  const INTERVAL = /\[[^\][{}"]+,\s*[^\][{}"]+\]/g;
  const lines = (node: Text, from: number, to: number) => {
    const range = document.createRange();
    range.setStart(node, from);
    range.setEnd(node, to);
    const tops = new Set(
      [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
    );
    return tops.size;
  };
  const wrapped: string[] = [];
  for (const cell of main.querySelectorAll<HTMLElement>("td, th")) {
    if (cell.getClientRects().length === 0) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const text = node.data;
      const trimmed = text.trim();
      if (ID.test(trimmed)) {
        const at = text.indexOf(trimmed);
        if (lines(node, at, at + trimmed.length) > 1) wrapped.push(trimmed);
      }
      for (const m of text.matchAll(INTERVAL))
        if (lines(node, m.index, m.index + m[0].length) > 1) wrapped.push(m[0]);
    }
  }
  return { small, wrapped: wrapped.slice(0, 5) };
}

test("on a phone the navigation folds behind a Menu button that works by keyboard; on a desktop it is all shown", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demoLogin.admin);
  await page.goto("/admin");
  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
  // The folded header is one row, not the 250 px the eleven admin links wrapped to.
  expect((await page.locator(".site-header").boundingBox())!.height).toBeLessThan(80);
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Campaigns" })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Overview" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await menu.press("Space");
  await nav.getByRole("link", { name: "Campaigns" }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole("link", { name: "Audit" })).toBeVisible();
});
