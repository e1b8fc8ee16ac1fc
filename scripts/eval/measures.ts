import { TrecMeasureError } from "../trec-eval/registry";
import { entryOf, measureEntries } from "./registry";
import type { IrKind, Measure, MeasureKind, MeasureSyntax } from "./registry/types";
import { trecItems } from "./trec-names";

export type { Measure, MeasureKind };
export { isLowerBetter } from "./registry";

/**
 * Measure names in ir_measures style (with trec_eval's MAP, MRR and HR accepted as AP, RR and Success): `nDCG@10`, `AP(rel=2)@10`, `Success(g=2)@10`, `Rank(g=1)`,
 * `HLU(a=5)`, `HLU-ratio(a=5)`, `nDCG(gain=exp)@10`, `nDCG(gains={0:0,1:1,2:3})@10`, `RBP(p=0.8)`, `ERR@20`, `SetF(beta=0.5)`, `IPrec@0.1`; and
 * trec_eval's own names (`map`, `P.5`, `ndcg_cut.10`, `bpref`, `Rprec_mult.0.2`, `all_trec`, …; see trec-names.ts). Input is
 * case-insensitive for ir_measures names; `formatMeasure` prints the canonical form. How each kind is
 * written (its parameters, cutoff and aliases) is its registry entry's `syntax` (registry/).
 */
const irEntries = measureEntries.filter((e) => e.kind !== "Trec");
const syntaxOf = (kind: IrKind): MeasureSyntax => entryOf(kind).syntax;

const kindsByLowerName = new Map<string, IrKind>(
  irEntries.flatMap((e) =>
    [e.kind, ...(e.syntax.aliases ?? [])].map((name) => [name.toLowerCase(), e.kind as IrKind]),
  ),
);

/** Defaults that -l, -J and -M set for every measure that takes them. */
export interface MeasureDefaults {
  rel?: number;
  judgedOnly?: boolean;
  depth?: number;
}

export const validMeasureForms = measureEntries.map((e) => e.syntax.describe).join(", ");

export class MeasureError extends Error {}

// A name is letters, and a hyphen inside (HLU-ratio).
const pattern = /^\s*([A-Za-z]+(?:-[A-Za-z]+)?)\s*(?:\((.*)\))?\s*(?:@\s*(\S+))?\s*$/;

/** Splits `a=1,gains={0:0,1:1}` at the commas outside braces. */
export function splitParams(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
    else if (text[i] === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Reads the parameters every measure takes, whatever its kind: judged_only (true or false) and
 * depth (a whole number of at least 1). Returns false for any other key.
 */
export function commonParam(
  measure: { judgedOnly?: boolean; depth?: number },
  key: string,
  value: string,
  fail: (why: string) => never,
): boolean {
  if (key === "judged_only") {
    const v = value.toLowerCase();
    if (v !== "true" && v !== "false") fail(`judged_only is true or false`);
    measure.judgedOnly = v === "true" ? true : undefined;
    return true;
  }
  if (key === "depth") {
    if (!/^\d+$/.test(value) || Number(value) < 1) fail(`depth must be a whole number of at least 1`);
    measure.depth = Number(value);
    return true;
  }
  return false;
}

/** One measure by name; a name that stands for several (`P.5,10`, `all_trec`) is refused here: see parseMeasures. */
export function parseMeasure(input: string, defaults: MeasureDefaults = {}): Measure {
  const several = parseMeasureList(input, defaults);
  if (several.length !== 1)
    throw new MeasureError(`"${input}" names ${several.length} measures; give them one at a time.`);
  return several[0];
}

function parseMeasureList(input: string, defaults: MeasureDefaults): Measure[] {
  const trimmed = input.trim();
  const paren = /^([^(]*)\((.*)\)$/.exec(trimmed);
  const base = paren ? paren[1].trim() : trimmed;
  const extra = paren ? paren[2] : "";
  let items: ReturnType<typeof trecItems>;
  try {
    items = trecItems(base);
  } catch (error) {
    if (error instanceof TrecMeasureError)
      throw new MeasureError(
        `"${input}" is not a measure (${error.message}); valid forms: ${validMeasureForms}.`,
      );
    throw error;
  }
  if (!items) return [parseIrMeasure(input, defaults)];
  return items.map((item) => {
    if ("kind" in item) {
      const params = [...(item.params ?? []), ...(extra.trim() ? [extra] : [])].join(",");
      return parseIrMeasure(
        `${item.kind}${params ? `(${params})` : ""}${item.cutoff !== undefined ? `@${item.cutoff}` : ""}`,
        defaults,
      );
    }
    return trecMeasure(input, item, extra, defaults);
  });
}

/** A trec_eval measure of its own (gm_map, Rprec_mult_0.20, ndcg_1=3,2=9, …) with rel, judged_only and depth. */
function trecMeasure(
  input: string,
  item: { family: string; text: string | null; name: string },
  extra: string,
  defaults: MeasureDefaults,
): Measure {
  const fail = (why: string): never => {
    throw new MeasureError(`"${input}" is not a measure (${why}); valid forms: ${validMeasureForms}.`);
  };
  const measure: Omit<Measure, "name"> = {
    kind: "Trec",
    rel: defaults.rel ?? 1,
    gain: "linear",
    g: 1,
    a: 5,
    trec: { family: item.family, text: item.text },
  };
  if (defaults.judgedOnly) measure.judgedOnly = true;
  if (defaults.depth !== undefined) measure.depth = defaults.depth;
  const seen = new Set<string>();
  for (const part of extra.trim() ? splitParams(extra) : []) {
    const [key, value, more] = part.split("=").map((s) => s.trim());
    if (!key || value === undefined || more !== undefined) fail("parameters are written key=value");
    if (seen.has(key)) fail(`${key} is given twice`);
    seen.add(key);
    if (commonParam(measure, key, value, fail)) continue;
    if (key !== "rel") fail(`${item.family} takes only rel, judged_only and depth, not ${key}`);
    if (!/^-?\d+$/.test(value)) fail("rel must be a whole number");
    measure.rel = Number(value);
  }
  const params = [
    ...(measure.depth !== undefined ? [`depth=${measure.depth}`] : []),
    ...(measure.judgedOnly ? ["judged_only=true"] : []),
    ...(measure.rel !== 1 ? [`rel=${measure.rel}`] : []),
  ];
  return { ...measure, name: `${item.name}${params.length ? `(${params.join(",")})` : ""}` };
}

function parseIrMeasure(input: string, defaults: MeasureDefaults): Measure {
  const match = pattern.exec(input);
  const fail = (why: string): never => {
    throw new MeasureError(`"${input}" is not a measure (${why}); valid forms: ${validMeasureForms}.`);
  };
  if (!match) return fail("malformed name");
  const [, rawName, rawParams, rawCutoff] = match;
  const kind = kindsByLowerName.get(rawName.toLowerCase()) ?? fail(`unknown measure ${rawName}`);
  const rule = syntaxOf(kind);
  const takesRel = rule.params.includes("rel");
  const measure: Omit<Measure, "name"> = {
    kind,
    rel: !takesRel ? 1 : kind === "RBP" || kind === "NumRet" ? NaN : (defaults.rel ?? 1),
    gain: "linear",
    g: 1,
    a: 5,
  };
  if (kind === "RBP") measure.p = 0.8;
  if (kind === "SetF") measure.beta = 1;
  if (defaults.judgedOnly) measure.judgedOnly = true;
  if (defaults.depth !== undefined) measure.depth = defaults.depth;
  if (rawCutoff !== undefined) {
    if (rule.cutoff === "none") fail(`${kind} takes no cutoff`);
    if (rule.cutoff === "fraction") {
      const v = Number(rawCutoff);
      if (!/^(\d+\.?\d*|\.\d+)$/.test(rawCutoff) || v > 1)
        fail(`the recall level must be a number from 0 to 1`);
      measure.k = v;
    } else {
      if (!/^\d+$/.test(rawCutoff) || Number(rawCutoff) < 1)
        fail(`the cutoff must be a whole number of at least 1`);
      measure.k = Number(rawCutoff);
    }
  } else if (rule.cutoff === "required") fail(`${kind} needs a cutoff, as in ${kind}@10`);
  else if (rule.cutoff === "fraction") fail(`${kind} needs a recall level, as in ${kind}@0.1`);
  if (rawParams !== undefined && rawParams.trim() !== "") {
    const seen = new Set<string>();
    for (const part of splitParams(rawParams)) {
      const eq = part.indexOf("=");
      const key = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
      const rawValue = eq < 0 ? undefined : part.slice(eq + 1).trim();
      if (!key || rawValue === undefined || (key !== "gains" && rawValue.includes("=")))
        fail(`parameters are written key=value`);
      if (seen.has(key)) fail(`${key} is given twice`);
      seen.add(key);
      if (commonParam(measure, key, rawValue!, fail)) continue;
      if (!(rule.params as string[]).includes(key))
        fail(
          `${kind} takes ${rule.params.length ? `only ${rule.params.join(", ")}` : "no parameters"}, not ${key}`,
        );
      const value = rawValue!;
      if (key === "gain") {
        const v = value.toLowerCase();
        if (v !== "linear" && v !== "exp") fail(`gain is linear or exp`);
        measure.gain = v as "linear" | "exp";
      } else if (key === "gains") {
        measure.gains = parseGains(value, fail);
      } else if (key === "a" || key === "beta") {
        const v = Number(value);
        if (!Number.isFinite(v) || v <= 0) fail(`${key} must be a positive number`);
        measure[key] = v;
      } else if (key === "p") {
        const v = Number(value);
        if (!Number.isFinite(v) || v <= 0 || v >= 1) fail(`p must be a number between 0 and 1`);
        measure.p = v;
      } else {
        const v = Number(value);
        if (!Number.isInteger(v) || v < (key === "g" ? 1 : 0))
          fail(`${key} must be a whole number${key === "g" ? " of at least 1" : ""}`);
        measure[key as "rel" | "g"] = v;
      }
    }
  }
  if (measure.gains && measure.gain === "exp") fail(`gains and gain=exp cannot be combined`);
  return { ...measure, name: formatMeasure(measure) };
}

/** `{0:0,1:1,2:3}` → [[0, 0], [1, 1], [2, 3]]. */
function parseGains(text: string, fail: (why: string) => never): [number, number][] {
  const inner = /^\{(.*)\}$/.exec(text.trim());
  if (!inner) return fail(`gains are written {label:gain,…}`);
  const out = new Map<number, number>();
  for (const pair of inner[1].split(",").filter((s) => s.trim() !== "")) {
    const [label, gain, extra] = pair.split(":").map((s) => s.trim());
    if (
      extra !== undefined ||
      !/^-?\d+$/.test(label ?? "") ||
      gain === undefined ||
      !Number.isFinite(Number(gain)) ||
      gain === ""
    )
      fail(`gains are written {label:gain,…} with whole-number labels`);
    if (out.has(Number(label))) fail(`the gain of label ${label} is given twice`);
    out.set(Number(label), Number(gain));
  }
  if (out.size === 0) fail(`gains needs at least one label:gain`);
  return [...out].sort((a, b) => a[0] - b[0]);
}

export function formatMeasure(m: Omit<Measure, "name">): string {
  if (m.kind === "Trec") throw new Error("trec_eval measures are named where they are parsed");
  const rule = syntaxOf(m.kind);
  const shown = rule.alwaysShown ?? [];
  const params: string[] = [];
  // Alphabetical, as ir_measures prints them; defaults left out unless the measure always shows them.
  if (m.kind === "HLU" || m.kind === "HLU-ratio") params.push(`a=${m.a}`);
  if (m.kind === "SetF" && m.beta !== undefined && m.beta !== 1) params.push(`beta=${m.beta}`);
  if (m.depth !== undefined) params.push(`depth=${m.depth}`);
  if ((m.kind === "Success" || m.kind === "Rank") && (m.g !== 1 || shown.includes("g")))
    params.push(`g=${m.g}`);
  if (m.kind === "nDCG" && m.gain === "exp") params.push("gain=exp");
  if (m.gains) params.push(`gains={${m.gains.map(([l, g]) => `${l}:${g}`).join(",")}}`);
  if (m.judgedOnly) params.push("judged_only=true");
  if (m.kind === "RBP" && m.p !== undefined && m.p !== 0.8) params.push(`p=${m.p}`);
  const defaultRel = m.kind === "RBP" || m.kind === "NumRet" ? NaN : 1;
  if (
    rule.params.includes("rel") &&
    !Object.is(m.rel, defaultRel) &&
    !(Number.isNaN(m.rel) && Number.isNaN(defaultRel))
  )
    params.push(`rel=${m.rel}`);
  params.sort();
  return `${m.kind}${params.length ? `(${params.join(",")})` : ""}${m.k !== undefined ? `@${m.k}` : ""}`;
}

/** Measures by name, in order, each once; trec_eval names may stand for several (`P.5,10`, `all_trec`). */
export function parseMeasures(names: string[], defaults: MeasureDefaults = {}): Measure[] {
  const out: Measure[] = [];
  const seen = new Set<string>();
  for (const n of names) {
    for (const m of parseMeasureList(n, defaults)) {
      if (!seen.has(m.name)) {
        seen.add(m.name);
        out.push(m);
      }
    }
  }
  return out;
}

/** The default set of `assay eval`: the trec_eval-comparable core plus the people-recommender measures. */
export const defaultMeasureNames = [
  "nDCG@5",
  "nDCG@10",
  "nDCG@20",
  "AP",
  "AP@10",
  "RR",
  "P@5",
  "P@10",
  "R@10",
  "Success@1",
  "Success@5",
  "Success@10",
];
