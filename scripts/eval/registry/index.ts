import { AP } from "./ap";
import { NumQ, NumRel, NumRelRet, NumRet } from "./counts";
import { Coverage } from "./coverage";
import { ERR } from "./err";
import { HLU, HLURatio } from "./hlu";
import { Judged } from "./judged";
import { nDCG } from "./ndcg";
import { poolRecallDisplay } from "./pool-recall";
import { P, R } from "./precision-recall";
import { RBP } from "./rbp";
import { RR } from "./rr";
import { SetAP, SetF, SetP, SetR, SetRelP } from "./set";
import { Rank, Success } from "./success";
import { Bpref, infAP, IPrec, Rprec, Trec } from "./trec-family";
import type { Aggregation, Measure, MeasureDisplay, MeasureEntry, MeasureKind } from "./types";

/**
 * Every measure Assay computes, one entry each (definition, function, aggregation, syntax, display and
 * the reference it is checked against), in the order error messages list them; trec_eval's own names
 * last. Adding a measure: its entry file beside this one, its kind in MeasureKind (types.ts) and here
 * (the compiler holds the two to each other), and its test (registry.test.ts checks that it names one).
 */
const entries: Record<MeasureKind, MeasureEntry> = {
  nDCG,
  AP,
  RR,
  P,
  R,
  Success,
  Rank,
  Judged,
  Coverage,
  HLU,
  "HLU-ratio": HLURatio,
  ERR,
  RBP,
  SetP,
  SetRelP,
  SetR,
  SetF,
  SetAP,
  IPrec,
  Rprec,
  Bpref,
  infAP,
  NumQ,
  NumRel,
  NumRet,
  NumRelRet,
  Trec,
};

export const measureEntries: readonly MeasureEntry[] = Object.values(entries);

export function entryOf(kind: MeasureKind): MeasureEntry {
  return entries[kind];
}

export function aggregationOf(m: Measure): Aggregation {
  const { aggregation } = entryOf(m.kind);
  return typeof aggregation === "function" ? aggregation(m) : aggregation;
}

/** Whether a lower value is the better one (Rank(g), trec_eval's unj and rbp_resid). */
export function isLowerBetter(m: Measure): boolean {
  return entryOf(m.kind).lowerIsBetter?.(m) ?? false;
}

/**
 * How the app shows a figure named by a measure's canonical name (or the offline report's PoolRecall);
 * null for a name no entry displays.
 */
export function measureDisplay(name: string): MeasureDisplay | null {
  for (const rule of [...measureEntries.flatMap((e) => e.display ?? []), poolRecallDisplay]) {
    const match = name.match(rule.pattern);
    if (match) return rule.show(match);
  }
  return null;
}

export type { Aggregation, Labels, Measure, MeasureEntry, MeasureKind } from "./types";
