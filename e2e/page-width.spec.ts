import { demoLogin, expect, signIn, test } from "./test";
import { appPages, demoDatabase, testEveryPage } from "./pages";
import { layoutProblems } from "./layout";

/**
 * No page scrolls sideways on a phone (390 px, an iPhone 12–15): wide tables scroll inside their own
 * box, charts draw at the width they are given, the navigation folds into a menu.
 */
testEveryPage({ width: 390, height: 844 }, async (page, _entry, path) => {
  const { scrollWidth, wide } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // What widens the page: elements past the right edge that no ancestor clips (a table inside its own
    // scroll box sticks out too, but does not widen the page), outermost only, widest first.
    const clipped = (el: HTMLElement) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const out = (el: Element | null) => !!el && el.getBoundingClientRect().right > width + 1;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter(
        (el) => out(el) && !clipped(el) && !(el.parentElement !== document.body && out(el.parentElement)),
      )
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
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
  const { small, wrapped } = await page.evaluate(layoutProblems);
  // Grade buttons, row actions, sort and pager links, toggles, text boxes: at least 44 px (WCAG 2.5.5).
  expect(small, `${path}: controls under 44 px at 390 px`).toEqual([]);
  // An id ("prop-0001") or an interval ("[10.1%, 14.2%]") in a table reads on one line, never split.
  expect(wrapped, `${path}: ids or intervals broken over lines at 390 px`).toEqual([]);
});

/** Pages whose tables hold ids beside wide text columns, where a desktop table squeezed the id column. */
const ID_TABLES = ["candidates", "campaign", "audit", "campaign dashboard"];

for (const entry of appPages.filter((p) => ID_TABLES.includes(p.name))) {
  test(`at 1440 px ids and intervals read on one line: ${entry.role} ${entry.name}`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoLogin[entry.role as keyof typeof demoLogin]);
    const sql = await demoDatabase();
    const path = typeof entry.path === "string" ? entry.path : await entry.path({ sql, page });
    await sql.end();
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const { wrapped } = await page.evaluate(layoutProblems);
    expect(wrapped, `${path}: ids or intervals broken over lines at 1440 px`).toEqual([]);
  });
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px the guardrails box is a full-width code field with its syntax as help`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, demoLogin.admin);
    await page.goto("/admin/experiments/reviewer-ranker-v2");
    const box = page.getByRole("textbox", { name: "Guardrails", exact: true });
    await expect(box).toHaveAccessibleDescription(/metric:direction:tolerance/);
    const look = await box.evaluate((el) => {
      const form = el.closest("form")!.getBoundingClientRect().width;
      const style = getComputedStyle(el);
      const text = (el as HTMLTextAreaElement).value;
      return {
        share: el.getBoundingClientRect().width / form,
        weight: style.fontWeight,
        monospace: /mono/.test(style.fontFamily),
        // Lines never wrap inside the box (one guardrail a line); every line shows without scrolling down.
        unbroken: style.whiteSpace === "pre",
        allLines: el.scrollHeight <= el.clientHeight + 1 && text.split("\n").length >= 3,
      };
    });
    expect(look.share, "the box spans the form").toBeGreaterThan(0.9);
    expect(look).toMatchObject({ weight: "400", monospace: true, unbroken: true, allLines: true });
  });
}

test("at 1440 px the new-user form's fields sit right under its heading, with no empty band", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/users");
  const form = page.getByRole("region", { name: "New user" });
  const heading = await form.getByRole("heading", { name: "New user" }).boundingBox();
  const name = await form.getByLabel("Name", { exact: true }).boundingBox();
  // The heading, a line of label, then the field: about 50 px; the band above the fields was ~200 px.
  expect(name!.y - (heading!.y + heading!.height)).toBeLessThan(80);
});

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
