import { cFixed } from "../trec-eval/printf";
import {
  instantiate,
  nicknames,
  trecMeasureDef,
  TrecMeasureError,
  trecMeasureNames,
} from "../trec-eval/registry";
import { measureEntries } from "./registry";

/** trec_eval's families that are numbers per query (runid and relstring are not). */
const numericFamilies = trecMeasureNames.filter((n) => n !== "runid" && n !== "relstring");
const longestFirst = [...numericFamilies].sort((a, b) => b.length - a.length);
/** Bare names that are ir_measures names first (`P` and `success` need a cutoff there, as P@10). */
const irFirst = new Set([
  "p",
  "r",
  "success",
  "rprec",
  "bpref",
  "infap",
  "ndcg",
  "map",
  "numq",
  "numrel",
  "numret",
]);

/**
 * trec_eval families that are ir_measures measures under another name (each registry entry's
 * `trecNames`): `P.5` is P@5, `map_cut.10` is AP@10, `set_F.0.5` is SetF(beta=0.5). Each gives the
 * kind, cutoff and parameters of one value.
 */
const asIrMeasure: Record<
  string,
  (value: number | null) => { kind: string; cutoff?: number; params?: string[] }
> = Object.fromEntries(
  measureEntries.flatMap((entry) =>
    Object.entries(entry.trecNames ?? {}).map(([family, item]) => [
      family,
      (value: number | null) => ({ kind: entry.kind, ...item(value) }),
    ]),
  ),
);

/** One value of a trec_eval name: an ir_measures measure, or a trec_eval measure of its own. */
export type TrecItem =
  | { kind: string; cutoff?: number; params?: string[] }
  | { family: string; text: string | null; name: string };

/**
 * The values a trec_eval name stands for (`P.5,10`, `ndcg_cut_10`, `Rprec_mult.0.2`,
 * `utility.2,-1,0,0`, `all_trec`), without parenthesised parameters; null when the name is no
 * trec_eval name. Bad parameters throw TrecMeasureError.
 */
export function trecItems(base: string): TrecItem[] | null {
  if (!/^[A-Za-z0-9_]/.test(base) || base.includes("@")) return null;
  const groups = nicknames(true);
  if (groups[base])
    return groups[base].filter((f) => numericFamilies.includes(f)).flatMap((f) => familyItems(f, null));
  if (irFirst.has(base.toLowerCase())) return null;
  for (const family of longestFirst) {
    if (base === family) return familyItems(family, null);
    if (base.startsWith(family) && (base[family.length] === "." || base[family.length] === "_")) {
      const text = base.slice(family.length + 1);
      if (text === "")
        throw new TrecMeasureError(`${family} is given no parameters after "${base[family.length]}"`);
      return familyItems(family, text);
    }
  }
  return null;
}

function familyItems(family: string, text: string | null): TrecItem[] {
  const def = trecMeasureDef(family)!;
  if (def.shape === "single" && text !== null) throw new TrecMeasureError(`${family} takes no parameters`);
  const measure = instantiate(def, text);
  const cut = def.shape === "cut-long" || def.shape === "cut-float";
  const values: (number | null)[] = cut
    ? measure.params.values
    : [text === null ? null : (measure.params.values[0] ?? null)];
  return values.map((value, i) => {
    const ir = asIrMeasure[family];
    // map, ndcg and the like with parameters of trec_eval's own (gains) stay trec_eval measures.
    if (ir && (cut || def.shape === "single" || family === "set_F")) return ir(value);
    if (family === "ndcg" && text === null) return { kind: "nDCG" };
    const single = cut ? String(value) : text;
    let name = cut ? measure.names[i] : measure.names[0];
    // trec_eval prints fractional cut-offs to two decimals; a name must read back as the same cut-off.
    if (def.shape === "cut-float" && Number(cFixed(value!, 2)) !== value) name = `${family}_${value}`;
    return { family, text: single, name };
  });
}
