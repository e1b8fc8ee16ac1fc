import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { DifferencesTable } from "./differences-table";

const comparison = {
  arm: "B",
  control: "A",
  metric: "ctr",
  difference: 0.0094,
  relativeLift: 0.113,
  ci: { lower: 0.0058, upper: 0.013 },
  liftCi: { lower: 0.069, upper: 0.157 },
  pValue: 0.0004,
};

describe("DifferencesTable", () => {
  it("shows the relative lift with its 95% interval, as the difference", () => {
    const html = renderToStaticMarkup(
      createElement(DifferencesTable, { report: { intervals: "fixed", comparisons: [comparison] } as never }),
    );
    expect(html).toContain("Lift (95% CI)");
    expect(html).toContain("+11.3%");
    expect(html).toContain("[+6.9%,\u00a0+15.7%]");
    expect(html).toContain("[+0.58\u00a0pp,\u00a0+1.3\u00a0pp]");
  });

  it("shows no lift interval where the report has none", () => {
    const html = renderToStaticMarkup(
      createElement(DifferencesTable, {
        report: { intervals: "fixed", comparisons: [{ ...comparison, liftCi: null }] } as never,
      }),
    );
    expect(html).toContain("+11.3%");
    expect(html).not.toContain("[+6.9%");
  });
});
