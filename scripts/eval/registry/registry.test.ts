import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { metricDisplay } from "../../../app/utils/metrics-display";
import { formatMeasure, parseMeasure, validMeasureForms } from "../measures";
import { aggregationOf, entryOf, measureDisplay, measureEntries } from ".";

const root = path.resolve(__dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The example names of an entry's syntax (`Success@K, Success(g=2)@K` → Success@10, Success(g=2)@10). */
const examples = (describe: string) => describe.split(", ").map((form) => form.replace(/@K$/, "@10"));

describe("the measure registry", () => {
  it("has one entry per kind", () => {
    const kinds = measureEntries.map((e) => e.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const kind of kinds) expect(entryOf(kind).kind).toBe(kind);
  });

  it.each(measureEntries.map((e) => [e.kind, e] as const))(
    "%s names a test that exists and checks it, and the reference values it compares to",
    (kind, entry) => {
      const { test, fixture, source } = entry.reference;
      expect(existsSync(path.join(root, test)), test).toBe(true);
      expect(test).toMatch(/\.test\.ts$/);
      expect(source.length).toBeGreaterThan(10);
      // The test (or the fixture it reads its names from) names the measure; trec_eval's own names come by all_trec.
      const named = kind === "Trec" ? "all_trec" : kind;
      if (fixture) expect(existsSync(path.join(root, fixture)), fixture).toBe(true);
      expect(read(test).includes(named) || (fixture !== undefined && read(fixture).includes(named))).toBe(
        true,
      );
    },
  );

  it.each(measureEntries.map((e) => [e.kind, e] as const))(
    "%s has a one-line definition, and the functions its aggregation needs",
    (_kind, entry) => {
      expect(entry.definition).not.toContain("\n");
      expect(entry.definition.length).toBeGreaterThan(10);
      if (entry.aggregation === "ratio") expect(entry.parts).toBeDefined();
      if (entry.aggregation === "corpus") expect(entry.corpus).toBeDefined();
    },
  );

  it("reads every example name of every ir_measures entry as that entry, and prints it back the same", () => {
    for (const entry of measureEntries.filter((e) => e.kind !== "Trec")) {
      for (const name of examples(entry.syntax.describe)) {
        const measure = parseMeasure(name);
        expect(measure.kind, name).toBe(entry.kind);
        expect(aggregationOf(measure)).toBe(entry.aggregation);
        expect(parseMeasure(formatMeasure(measure)).name).toBe(measure.name);
      }
      for (const alias of entry.syntax.aliases ?? [])
        expect(parseMeasure(`${alias}@10`).kind).toBe(entry.kind);
    }
    expect(validMeasureForms).toBe(measureEntries.map((e) => e.syntax.describe).join(", "));
  });
});

describe("trec_eval's names for the registry's measures", () => {
  it.each([
    ["map", "AP"],
    ["map_cut.10", "AP@10"],
    ["P.5", "P@5"],
    ["recall.10", "R@10"],
    ["ndcg_cut.10", "nDCG@10"],
    ["recip_rank", "RR"],
    ["success.5", "Success@5"],
    ["Rprec", "Rprec"],
    ["bpref", "Bpref"],
    ["infAP", "infAP"],
    ["set_P", "SetP"],
    ["set_relative_P", "SetRelP"],
    ["set_recall", "SetR"],
    ["set_map", "SetAP"],
    ["set_F", "SetF"],
    ["set_F.0.5", "SetF(beta=0.5)"],
    ["iprec_at_recall.0.10", "IPrec@0.1"],
    ["num_q", "NumQ"],
    ["num_rel", "NumRel"],
    ["num_ret", "NumRet"],
    ["num_rel_ret", "NumRelRet"],
  ])("%s reads as %s", (trecName, name) => {
    expect(parseMeasure(trecName).name).toBe(name);
  });

  it("each trec_eval family is one entry's", () => {
    const families = measureEntries.flatMap((e) => Object.keys(e.trecNames ?? {}));
    expect(new Set(families).size).toBe(families.length);
    expect(families).toHaveLength(20);
  });
});

describe("labels come from the registry", () => {
  it("the app shows every displayed measure as its entry says", () => {
    let shown = 0;
    for (const entry of measureEntries.filter((e) => e.kind !== "Trec")) {
      for (const name of examples(entry.syntax.describe).map((n) => parseMeasure(n).name)) {
        const rule = entry.display?.find((r) => r.pattern.test(name));
        if (!rule) continue;
        expect(metricDisplay(name)).toEqual({ code: name, ...rule.show(name.match(rule.pattern)!) });
        shown++;
      }
    }
    expect(shown).toBeGreaterThanOrEqual(12);
  });

  it("every measure of the offline report and the rating campaigns has a display name of its own", () => {
    for (const name of [
      "Success@10",
      "Success(g=2)@10",
      "RR@10",
      "AP",
      "HLU(a=5)",
      "HLU-ratio(a=5)",
      "Rank(g=1)",
      "Coverage@10",
    ])
      expect(measureDisplay(name), name).not.toBeNull();
    for (const name of ["nDCG@10", "nDCG(gain=exp)@10", "Judged@10", "P@5", "R@10", "PoolRecall"])
      expect(measureDisplay(name), name).not.toBeNull();
    expect(metricLabelOf("Success@10")).toBe("HR@10");
    expect(measureDisplay("adoptionRate")).toBeNull();
  });

  it("the app's display module lists no ranking measure of its own", () => {
    const source = read("app/utils/metrics-display.ts");
    for (const name of ["Success", "nDCG", "Judged", "HLU", "Rank\\(", "PoolRecall"])
      expect(source, name).not.toMatch(new RegExp(`pattern: /\\^${name}`));
  });
});

const metricLabelOf = (name: string) => metricDisplay(name).label;
