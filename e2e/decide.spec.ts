import { demoLogin, expect, signIn, test } from "./test";

const SHOTS = process.env.DECIDE_SHOTS;

test("an admin sets how the A/B result is read; the analyst's results table follows, with its toggles", async ({
  page: adminPage,
  browser,
}) => {
  let page = adminPage;
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/experiments/reviewer-ranker-v2");
  const settings = page.getByRole("region", { name: "How the result is read" });
  // The demo holds no events from years back: a pre-period that long is refused by name, nothing stored.
  await settings.getByLabel(/CUPED/).check();
  await settings.getByLabel("Pre-period (days before the start)").fill("365");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByRole("alert")).toContainText("prePeriodDays: a pre-period of 365 days");
  await settings.getByLabel(/CUPED/).uncheck();
  await settings.getByLabel("Engine").selectOption("bayesian");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved: how the result is read.");
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-settings.png`, fullPage: true });

  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments/reviewer-ranker-v2");
  const results = page.getByRole("table", { name: "Results" });
  await expect(results.getByRole("row")).toHaveCount(5);
  await expect(results.locator("thead th", { hasText: "Chance to win" })).toBeVisible();
  await expect(page.getByText(/CUPED is off for this experiment/)).toBeVisible();
  if (SHOTS) {
    await page
      .getByRole("region", { name: "Results", exact: true })
      .screenshot({ path: `${SHOTS}/results-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole("region", { name: "Results", exact: true })
      .screenshot({ path: `${SHOTS}/results-390.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  await page
    .getByRole("group", { name: "How the results are read" })
    .getByLabel("Engine")
    .selectOption("frequentist");
  await expect(results.locator("thead th", { hasText: /^p$/ })).toBeVisible();
});

test("the list flags the demo's failing guardrail; its page shows each guardrail's state and the slices by subject", async ({
  page,
}) => {
  // Reads the demo's whole A/B result (bootstrap included) on a shared machine.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments");
  await expect(page.getByRole("listitem").filter({ hasText: "Embedding ranker vs" })).toContainText(
    "guardrail failing",
  );
  await page.goto("/analyst/experiments/reviewer-ranker-v2");
  const guardrails = page.getByRole("table", { name: "Guardrails", exact: true });
  await expect(guardrails.getByRole("row").filter({ hasText: "finishing" })).toContainText("failing");
  await expect(guardrails.getByRole("row").filter({ hasText: "empty committee" })).toContainText("ok");
  await expect(guardrails.getByRole("row").filter({ hasText: "conflict-of-interest" })).toContainText(
    "at risk",
  );
  // A failing guardrail is told in the error style; "at risk" wears the risk badge, not grey text; the
  // share guardrails are a table of their own under their own heading.
  const section = page.getByRole("region", { name: "Guardrails", exact: true });
  await expect(section.locator("p.notice.error")).toContainText("guardrail reading is failing");
  await expect(
    guardrails.getByRole("row").filter({ hasText: "conflict-of-interest" }).locator(".badge-risk"),
  ).toHaveText("at risk");
  await expect(section.getByRole("heading", { name: "Share guardrails", level: 3 })).toBeVisible();
  const slices = page.getByRole("region", { name: "Slices", exact: true });
  await expect(slices).toContainText(/\d+ comparisons .* adjusted by Holm/);
  await slices.getByLabel("Adjust p by").selectOption("bh");
  await expect(slices).toContainText("adjusted by Benjamini–Hochberg");
  // At 390 px the slice table's kept first column wraps words at spaces only: no word is split.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(slices.locator(".table-frame[data-overflows]").first()).toBeVisible();
  const split = await slices.evaluate((root) => {
    const out: string[] = [];
    for (const cell of root.querySelectorAll("tr > :first-child")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        for (const word of (n.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(n, word.index!);
          range.setEnd(n, word.index! + word[0].length);
          const tops = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (tops.size > 1) out.push(word[0]);
        }
    }
    return out;
  });
  expect(split).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  if (SHOTS)
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await guardrails.screenshot({ path: `${SHOTS}/guardrails-${width}.png` });
      await slices.screenshot({ path: `${SHOTS}/slices-${width}.png` });
      await page.screenshot({ path: `${SHOTS}/list-page-${width}.png`, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      console.log(`decide3 ${width}: page scrolls sideways by ${overflow}px`);
    }
});
