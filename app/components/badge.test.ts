import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Badge, statusTone, type BadgeTone } from "./badge";

const app = path.resolve(__dirname, "..");
const css = readFileSync(path.join(app, "styles/app.css"), "utf8");

/** A custom property of the stylesheet's :root, as written ("#116329"). */
function variable(name: string): string {
  const found = new RegExp(`${name}:\\s*(#[0-9a-f]{6});`, "i").exec(css);
  if (!found) throw new Error(`app.css has no ${name}`);
  return found[1];
}

/** WCAG 2 relative luminance of an sRGB colour "#rrggbb". */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const TONES: BadgeTone[] = ["ok", "risk", "failing", "neutral"];

describe("badge colours", () => {
  it("computes contrast as WCAG does (black on white 21:1, #767676 on white 4.54:1)", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 6);
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it.each(TONES)("gives the %s tone's text at least 4.5:1 on its background (WCAG AA)", (tone) => {
    expect(contrast(variable(`--badge-${tone}-fg`), variable(`--badge-${tone}-bg`))).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  it("gives each tone its own background, and each tone a rule of its own", () => {
    expect(new Set(TONES.map((t) => variable(`--badge-${t}-bg`))).size).toBe(TONES.length);
    for (const tone of ["ok", "risk", "failing"]) expect(css).toContain(`.badge-${tone} {`);
  });
});

describe("Badge", () => {
  it("renders its word with the tone's class", () => {
    expect(
      renderToStaticMarkup(createElement(Badge, { tone: "failing", children: "guardrail failing" })),
    ).toBe('<span class="badge badge-failing">guardrail failing</span>');
    expect(renderToStaticMarkup(createElement(Badge, { children: "analyst" }))).toBe(
      '<span class="badge badge-neutral">analyst</span>',
    );
  });

  it("marks live campaigns and experiments ok and the rest neutral", () => {
    expect(["open", "running", "closed", "stopped", "draft"].map(statusTone)).toEqual([
      "ok",
      "ok",
      "neutral",
      "neutral",
      "neutral",
    ]);
  });

  it("is the only way the app draws a badge or pill (no page writes its own class)", () => {
    const files = (readdirSync(app, { recursive: true }) as string[]).filter(
      (f) => f.endsWith(".tsx") && !f.endsWith("badge.tsx"),
    );
    const own = files.filter((f) =>
      /className=[{"'`][^>]*\b(badge|pill|status-pill)\b/.test(readFileSync(path.join(app, f), "utf8")),
    );
    expect(own).toEqual([]);
    // The pill shape (a fully rounded border) belongs to .badge alone.
    const rounded = [...css.matchAll(/([^{}]+)\{[^}]*border-radius: 999px/g)].map((m) => m[1].trim());
    expect(rounded).toEqual([expect.stringMatching(/\.badge$/)]);
  });
});
