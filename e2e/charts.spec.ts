import { demoLogin, expect, signIn, test } from "./test";
import { layoutProblems } from "./layout";

/**
 * Charts are drawn at the size they are shown (no 640 px SVG shrunk into a 360 px column, whose
 * 12 px text read at 7 px), each named by its title, with its figures behind a "Data table" toggle,
 * and the forest plot's intervals inside the plot.
 */
for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`charts at ${viewport.width} px: drawn at their shown size, text at least 11 px, titled, with a data table`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await signIn(page, demoLogin.analyst);
    for (const path of ["/analyst", "/analyst/experiments/reviewer-ranker-v2"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const figures = page.locator("figure.chart");
      expect(await figures.count(), path).toBeGreaterThan(1);
      // Plot draws after hydration, one chart at a time: on a loaded machine some are still to come.
      await expect
        .poll(() =>
          figures.evaluateAll((all) =>
            all.every((f) => f.querySelector(".chart-canvas svg") && f.querySelector(".chart-title")),
          ),
        )
        .toBe(true);
      const measured = await figures.evaluateAll((all) =>
        all.map((figure) => {
          // The plot's own SVG is the widest one (legend swatches are small SVGs too).
          const svg = [...figure.querySelectorAll<SVGSVGElement>(".chart-canvas svg")].sort(
            (a, b) => b.width.baseVal.value - a.width.baseVal.value,
          )[0];
          const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
          const texts = [...svg.querySelectorAll("text")].map(
            (t) => parseFloat(getComputedStyle(t).fontSize) * scale,
          );
          return {
            title: figure.querySelector(".chart-title")?.textContent ?? "",
            scale,
            smallest: Math.min(...texts),
            name: figure.getAttribute("aria-labelledby"),
          };
        }),
      );
      for (const m of measured) {
        expect(m.title, path).not.toBe("");
        expect(m.name, `${m.title} is named by its title`).toBeTruthy();
        expect(m.scale, `${m.title} at ${viewport.width} px`).toBeCloseTo(1, 2);
        expect(m.smallest, `${m.title}: smallest text as shown`).toBeGreaterThanOrEqual(11);
      }
      // Legends come from the plotted series: a cumulative chart names exactly the lines it draws.
      const cumulatives = await page.locator("figure.chart", { hasText: /^Cumulative/ }).all();
      expect(cumulatives.length, path).toBe(path.includes("experiments") ? 4 : 0);
      for (const cumulative of cumulatives) {
        const entries = await cumulative.locator(".chart-legend li").count();
        expect(entries, "a cumulative chart has a legend").toBeGreaterThan(0);
        await expect(cumulative.locator('.chart-canvas g[aria-label="line"] path')).toHaveCount(entries);
      }
      // A table wider than its box says so (a shadow at the edge with more) and keeps its first column.
      const cues = await page.locator(".table-scroll").evaluateAll((boxes) =>
        boxes
          .filter((b) => b.scrollWidth > b.clientWidth + 1)
          .map((b) => ({
            cue: b.parentElement!.dataset.moreRight === "true",
            sticky: getComputedStyle(b.querySelector("tbody tr > :first-child") ?? b).position === "sticky",
            name: b.getAttribute("aria-label"),
          })),
      );
      for (const c of cues) expect(c, `${path}: ${c.name}`).toMatchObject({ cue: true, sticky: true });
      // Ids and intervals read on one line at this width too.
      expect((await page.evaluate(layoutProblems)).wrapped, `${path} at ${viewport.width} px`).toEqual([]);
      const first = figures.first();
      await first.getByText(/^Data table/).click();
      expect(await first.getByRole("table").getByRole("row").count()).toBeGreaterThan(2);
    }
    // On the experiment page: the forest plot keeps every interval inside, and says which way is better.
    const forest = page.getByRole("figure", { name: "Forest plot: lift vs control" });
    const inside = await forest.locator(".chart-canvas svg").evaluateAll((svgs) => {
      const svg = svgs.sort(
        (a, b) => (b as SVGSVGElement).width.baseVal.value - (a as SVGSVGElement).width.baseVal.value,
      )[0];
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll("line")].every((l) => {
        const r = l.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      });
    });
    expect(inside).toBe(true);
    await expect(forest.getByText(/lower is better/).first()).toBeVisible();
    // The K_hit histogram is one panel per system, never stacked: its data has one row per system and bin.
    await page.goto("/analyst");
    const histogram = page.getByRole("figure", { name: "K_hit histogram, one panel per system" });
    await histogram.getByText(/^Data table/).click();
    const systems = await histogram.getByRole("table").locator("tbody tr td:first-child").allInnerTexts();
    // The demo's three systems: baseline, challenger and the multileaving demo's hybrid.
    expect(new Set(systems).size).toBe(3);
  });
}
