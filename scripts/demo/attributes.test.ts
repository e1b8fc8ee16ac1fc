import { fairnessReport } from "../fairness/report";
import { demoAttributes } from "./attributes";
import { generateDemo } from "./generate";

describe("the demo's candidate attributes", () => {
  const data = generateDemo({});
  const rows = demoAttributes(data);
  const attributes = new Map<string, Map<string, string>>();
  for (const a of rows)
    attributes.set(a.attribute, (attributes.get(a.attribute) ?? new Map()).set(a.candidate, a.value));
  const lists = new Map<string, Map<string, string[]>>();
  for (const l of data.lists)
    lists.set(
      l.system,
      (lists.get(l.system) ?? new Map()).set(
        l.proposal,
        l.items.map((i) => i.candidate),
      ),
    );
  const report = fairnessReport({ lists, attributes, ks: [10], bootstrap: { B: 300 } });

  it("gives every candidate a gender, a country and a career stage, the same on every run", () => {
    expect(rows).toHaveLength(3 * data.candidates.length);
    expect(demoAttributes(data)).toEqual(rows);
    expect(new Set(attributes.get("gender")!.values())).toEqual(new Set(["f", "m", "unknown"]));
  });

  it("has the challenger show women less at the top than the pool and the baseline do (something to find)", () => {
    const women = (system: string) => report[system].attributes.gender.groups.f;
    const pool = women("challenger").poolShare;
    const challenger = women("challenger").figures["share@10"];
    const baseline = women("baseline").figures["share@10"];
    expect(challenger.ci!.upper).toBeLessThan(pool);
    expect(challenger.ci!.upper).toBeLessThan(baseline.ci!.lower);
  });
});
