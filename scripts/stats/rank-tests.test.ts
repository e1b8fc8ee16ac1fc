import { friedmanTest, mannWhitneyU } from "./rank-tests";

// Expected values: scipy 1.17.1, computed on these very arrays:
//   stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic")
//   stats.friedmanchisquare(*columns)
const rel = (actual: number, wanted: number) => Math.abs(actual - wanted) / Math.abs(wanted);

describe("Mann–Whitney U (scipy mannwhitneyu, asymptotic)", () => {
  it("matches scipy on tied grades of 1–4", () => {
    const r = mannWhitneyU([4, 3, 3, 2, 4, 1, 3, 4, 2, 3], [2, 1, 3, 2, 1, 2, 4, 1, 2, 2, 3, 1])!;
    expect(r.statistic).toBe(89.5);
    expect(rel(r.pValue, 0.04758262255622372)).toBeLessThan(1e-9);
  });

  it("matches scipy without ties, and is symmetric in p", () => {
    const x = [1.2, 3.4, 5.1, 0.3];
    const y = [2.2, 4.4, 6.0, 7.1, 0.1];
    const r = mannWhitneyU(x, y)!;
    expect(r.statistic).toBe(7);
    expect(rel(r.pValue, 0.5402913746074199)).toBeLessThan(1e-9);
    expect(rel(mannWhitneyU(y, x)!.pValue, 0.5402913746074199)).toBeLessThan(1e-9);
  });

  it("gives p = 1 when everything is tied and nothing for an empty side", () => {
    expect(mannWhitneyU([2, 2], [2, 2, 2])!.pValue).toBe(1);
    expect(mannWhitneyU([], [1, 2])).toBeNull();
  });
});

describe("Friedman χ² (scipy friedmanchisquare)", () => {
  it("matches scipy on continuous values with a tie", () => {
    const r = friedmanTest([
      [0.5, 0.6, 0.2, 0.9, 0.4, 0.3],
      [0.4, 0.7, 0.2, 0.8, 0.5, 0.1],
      [0.6, 0.6, 0.3, 1.0, 0.4, 0.35],
    ])!;
    expect(rel(r.statistic, 2.5714285714285716)).toBeLessThan(1e-12);
    expect(rel(r.pValue, 0.2764530466295643)).toBeLessThan(1e-9);
  });

  it("matches scipy on 0/1 values (hit or miss per variant), heavily tied", () => {
    const r = friedmanTest([
      [1, 0, 1, 1, 0, 1, 1, 0],
      [1, 1, 1, 0, 0, 1, 1, 1],
      [0, 0, 1, 1, 0, 1, 0, 0],
      [1, 1, 1, 1, 0, 1, 1, 1],
    ])!;
    expect(rel(r.statistic, 6.1764705882352935)).toBeLessThan(1e-12);
    expect(rel(r.pValue, 0.10333317829620263)).toBeLessThan(1e-9);
    expect(r.method).toBe("Friedman χ², df = 3");
  });

  it("needs three treatments and some untied block", () => {
    expect(friedmanTest([[1], [2]])).toBeNull();
    expect(
      friedmanTest([
        [1, 1],
        [1, 1],
        [1, 1],
      ]),
    ).toBeNull();
  });
});
