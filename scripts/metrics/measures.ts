/**
 * Measure names in ir_measures style (with trec_eval's MAP, MRR and HR accepted as AP, RR and Success): `nDCG@10`, `AP(rel=2)@10`, `Success(g=2)@10`, `Rank(g=1)`,
 * `HLU(a=5)`, `nDCG(gain=exp)@10`. Input is case-insensitive; `formatMeasure` prints the canonical form.
 */
export type MeasureKind = "nDCG" | "AP" | "RR" | "P" | "R" | "Success" | "Rank" | "Judged" | "Coverage" | "HLU";

export interface Measure {
  kind: MeasureKind;
  /** Cutoff; undefined means the whole list. */
  k?: number;
  /** Relevance threshold on gain labels: relevant means label ≥ rel. */
  rel: number;
  /** nDCG gain: the label itself, or 2^label − 1. */
  gain: "linear" | "exp";
  /** Success and Rank: how many relevant items are needed. */
  g: number;
  /** HLU half-life. */
  a: number;
  name: string;
}

interface KindRule {
  params: ("rel" | "gain" | "g" | "a")[];
  cutoff: "required" | "optional" | "none";
  /** Parameters printed even at their default value. */
  alwaysShown?: ("g" | "a")[];
  describe: string;
}

const rules: Record<MeasureKind, KindRule> = {
  nDCG: { params: ["gain"], cutoff: "optional", describe: "nDCG@K, nDCG(gain=exp)@K" },
  AP: { params: ["rel"], cutoff: "optional", describe: "AP, AP@K, AP(rel=2)" },
  RR: { params: ["rel"], cutoff: "optional", describe: "RR, RR@K" },
  P: { params: ["rel"], cutoff: "required", describe: "P@K" },
  R: { params: ["rel"], cutoff: "required", describe: "R@K" },
  Success: { params: ["rel", "g"], cutoff: "required", describe: "Success@K, Success(g=2)@K" },
  Rank: { params: ["rel", "g"], cutoff: "none", alwaysShown: ["g"], describe: "Rank(g=1)" },
  Judged: { params: [], cutoff: "required", describe: "Judged@K" },
  Coverage: { params: [], cutoff: "required", describe: "Coverage@K" },
  HLU: { params: ["rel", "a"], cutoff: "none", alwaysShown: ["a"], describe: "HLU(a=5)" },
};

const kindsByLowerName = new Map<string, MeasureKind>(
  (Object.keys(rules) as MeasureKind[]).flatMap((k) => [
    [k.toLowerCase(), k],
    ...(k === "Success" ? ([["hr", k] as [string, MeasureKind]]) : []),
    ...(k === "RR" ? ([["mrr", k] as [string, MeasureKind]]) : []),
    ...(k === "AP" ? ([["map", k] as [string, MeasureKind]]) : []),
  ]),
);

export const validMeasureForms = (Object.values(rules) as KindRule[]).map((r) => r.describe).join(", ");

export class MeasureError extends Error {}

const pattern = /^\s*([A-Za-z]+)\s*(?:\(([^)]*)\))?\s*(?:@\s*(\S+))?\s*$/;

export function parseMeasure(input: string): Measure {
  const match = pattern.exec(input);
  const fail = (why: string): never => {
    throw new MeasureError(`"${input}" is not a measure (${why}); valid forms: ${validMeasureForms}.`);
  };
  if (!match) return fail("malformed name");
  const [, rawName, rawParams, rawCutoff] = match;
  const kind = kindsByLowerName.get(rawName.toLowerCase()) ?? fail(`unknown measure ${rawName}`);
  const rule = rules[kind];
  const measure: Omit<Measure, "name"> = { kind, rel: 1, gain: "linear", g: 1, a: 5 };
  if (rawCutoff !== undefined) {
    if (rule.cutoff === "none") fail(`${kind} takes no cutoff`);
    if (!/^\d+$/.test(rawCutoff) || Number(rawCutoff) < 1) fail(`the cutoff must be a whole number of at least 1`);
    measure.k = Number(rawCutoff);
  } else if (rule.cutoff === "required") fail(`${kind} needs a cutoff, as in ${kind}@10`);
  if (rawParams !== undefined && rawParams.trim() !== "") {
    const seen = new Set<string>();
    for (const part of rawParams.split(",")) {
      const [rawKey, rawValue, extra] = part.split("=").map((s) => s.trim());
      const key = rawKey?.toLowerCase();
      if (!key || rawValue === undefined || extra !== undefined) fail(`parameters are written key=value`);
      if (!(rule.params as string[]).includes(key)) fail(`${kind} takes ${rule.params.length ? `only ${rule.params.join(", ")}` : "no parameters"}, not ${key}`);
      if (seen.has(key)) fail(`${key} is given twice`);
      seen.add(key);
      if (key === "gain") {
        const v = rawValue.toLowerCase();
        if (v !== "linear" && v !== "exp") fail(`gain is linear or exp`);
        measure.gain = v as "linear" | "exp";
      } else if (key === "a") {
        const v = Number(rawValue);
        if (!Number.isFinite(v) || v <= 0) fail(`a must be a positive number`);
        measure.a = v;
      } else {
        const v = Number(rawValue);
        if (!Number.isInteger(v) || v < (key === "g" ? 1 : 0)) fail(`${key} must be a whole number${key === "g" ? " of at least 1" : ""}`);
        measure[key as "rel" | "g"] = v;
      }
    }
  }
  return { ...measure, name: formatMeasure(measure) };
}

export function formatMeasure(m: Omit<Measure, "name">): string {
  const shown = rules[m.kind].alwaysShown ?? [];
  const params: string[] = [];
  // Alphabetical, as ir_measures prints them; defaults left out unless the measure always shows them.
  if (m.kind === "HLU") params.push(`a=${m.a}`);
  if ((m.kind === "Success" || m.kind === "Rank") && (m.g !== 1 || shown.includes("g"))) params.push(`g=${m.g}`);
  if (m.kind === "nDCG" && m.gain === "exp") params.push("gain=exp");
  if (rules[m.kind].params.includes("rel") && m.rel !== 1) params.push(`rel=${m.rel}`);
  params.sort();
  return `${m.kind}${params.length ? `(${params.join(",")})` : ""}${m.k !== undefined ? `@${m.k}` : ""}`;
}

export function parseMeasures(names: string[]): Measure[] {
  const out: Measure[] = [];
  const seen = new Set<string>();
  for (const n of names) {
    const m = parseMeasure(n);
    if (!seen.has(m.name)) {
      seen.add(m.name);
      out.push(m);
    }
  }
  return out;
}

/** The default set of `assay eval`: the trec_eval-comparable core plus the people-recommender measures. */
export const defaultMeasureNames = ["nDCG@5", "nDCG@10", "nDCG@20", "AP", "AP@10", "RR", "P@5", "P@10", "R@10", "Success@1", "Success@5", "Success@10"];
