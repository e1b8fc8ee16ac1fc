import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./test";
import { testEveryPage } from "./pages";

/** WCAG 2.0 and 2.1, levels A and AA: what the issue asks of every page. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core finds no serious or critical WCAG 2.1 AA violation on any page of any role, on a desktop
 * and on a phone (the navigation and tables change shape at narrow widths). Every page's counts by
 * impact go to the report as an annotation, for before/after comparisons.
 */
for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  testEveryPage(viewport, async (page, _entry, path) => {
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
    const counts: Record<string, number> = {};
    for (const v of violations)
      counts[v.impact ?? "unknown"] = (counts[v.impact ?? "unknown"] ?? 0) + v.nodes.length;
    const summary = `${path} @${viewport.width}: ${JSON.stringify(counts)} ${violations.map((v) => `${v.id}×${v.nodes.length}`).join(" ")}`;
    test.info().annotations.push({ type: "axe", description: summary });
    console.log(`AXE ${summary}`);
    const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    const described = blocking.map(
      (v) =>
        `${v.impact} ${v.id} (${v.help}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join("; ")}`,
    );
    expect(described, `${path} at ${viewport.width} px`).toEqual([]);
    // Headings in order (axe's heading-order is a best practice, outside the WCAG tags): one h1 first, no level skipped going down.
    const levels = await page
      .locator("h1, h2, h3, h4, h5, h6")
      .evaluateAll((hs) =>
        hs
          .filter((h) => (h as HTMLElement).offsetParent !== null || h.closest("details"))
          .map((h) => Number(h.tagName[1])),
      );
    const skips = levels.flatMap((level, i) =>
      i > 0 && level > levels[i - 1] + 1 ? [`h${levels[i - 1]} → h${level}`] : [],
    );
    expect(
      { first: levels[0], h1s: levels.filter((l) => l === 1).length, skips },
      `${path}: headings ${levels.join(" ")}`,
    ).toEqual({ first: 1, h1s: 1, skips: [] });
  });
}
