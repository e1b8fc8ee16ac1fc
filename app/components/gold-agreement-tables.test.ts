import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { goldAgreement } from "../../scripts/judgement/gold";
import { differenceText, GoldAgreementTables } from "./gold-agreement-tables";

// grades 2, 3, 4, 1 against truth 2, 2, 2, 3: differences 0, 1, 2, −2, mean 0.25, s = √(35/12), and the
// 95% t interval 0.25 ± 3.182446 · √(35/48) = [−2.47, +2.97] (worked in scripts/judgement/gold.test.ts).
const spread = goldAgreement([2, 3, 4, 1], [2, 2, 2, 3]);
// Ten grades all one above the truth but one: mean 0.9, s = √0.1, interval 0.9 ± 2.262157 · 0.1 = [+0.674, +1.13].
const biased = goldAgreement([3, 3, 3, 3, 3, 3, 3, 3, 3, 2], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);

describe("the mean difference of an expert against the gold items", () => {
  it("reads with its interval and unit", () => {
    expect(differenceText(spread)).toBe("+0.250 [−2.47,\u00a0+2.97]\u00a0grade points");
    expect(differenceText(biased)).toBe("+0.900 [+0.674,\u00a0+1.13]\u00a0grade points");
  });

  it("says no interval where one grade gives no spread, and nothing without grades", () => {
    expect(differenceText(goldAgreement([3], [2]))).toBe("+1\u00a0grade points");
    expect(differenceText(goldAgreement([], []))).toBe("—");
  });

  it("shows the interval in the per-expert table and in the sentence naming a flagged expert", () => {
    const html = renderToStaticMarkup(
      createElement(GoldAgreementTables, {
        gold: { goldItems: 10, raters: { "Ada Lovelace": biased, "Bo Li": spread }, proposals: {} } as never,
      }),
    );
    expect(html).toContain("Ada Lovelace (mean difference +0.900 [+0.674,\u00a0+1.13]\u00a0grade points, p");
    expect(html).toContain("95% CI of the difference");
    expect(html).toContain("Mean difference (grade − truth, grade points)");
    expect(html).toContain("[−2.47,\u00a0+2.97]");
  });
});
