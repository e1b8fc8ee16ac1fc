import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CurveTable } from "./gold-learning-curves";

const cells = (html: string) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, "")),
  );

describe("the learning-curve table (main and text-aware curves)", () => {
  const point = { method: "Majority vote", n: 2, accuracy: 0.8, lower: 0.75, upper: 0.85 };

  it("shows the main curve's points and each method's all-rater row with its suggested n", () => {
    const html = renderToStaticMarkup(
      createElement(CurveTable, {
        label: "Learning curves",
        nHeader: "Raters per pair",
        rangeHeader: "95% of draws",
        points: [point],
        allRaters: [{ method: "Majority vote", accuracy: 0.9, suggestedN: 2 }],
      }),
    );
    const rows = cells(html);
    expect(rows[0]).toEqual(["Method", "Raters per pair", "Accuracy on gold", "95% of draws"]);
    expect(rows[1].slice(0, 2)).toEqual(["Majority vote", "2"]);
    expect(rows[2].slice(0, 2)).toEqual(["Majority vote", "all"]);
    expect(rows[2][3]).toBe("suggested n: 2");
  });

  it("adds the difference from majority vote and its p for the text-aware curves, a dash where there is none", () => {
    const html = renderToStaticMarkup(
      createElement(CurveTable, {
        label: "Text-aware",
        nHeader: "Votes per pair",
        rangeHeader: "95% of orders",
        points: [
          { ...point, difference: null, pHolm: null },
          {
            ...point,
            method: "nn s=0.3",
            difference: 0.05,
            differenceCi: { lower: 0.01, upper: 0.09 },
            pHolm: 0.02,
          },
        ],
        compared: true,
      }),
    );
    const rows = cells(html);
    expect(rows[0]).toHaveLength(6);
    expect(rows[1][4]).toMatch(/^—/);
    expect(rows[2][4]).not.toMatch(/^—/);
    expect(rows).toHaveLength(3);
  });
});
