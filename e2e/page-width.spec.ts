import { expect } from "./test";
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
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""} (${Math.round(el.getBoundingClientRect().right)} px)`);
    return { scrollWidth: document.documentElement.scrollWidth, wide };
  });
  expect(scrollWidth, `${path} is ${scrollWidth} px wide at 390 px; sticking out: ${wide.join(", ")}`).toBeLessThanOrEqual(390);
});
