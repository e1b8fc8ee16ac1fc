import { trecFamilyValue } from "../trec-backed";
import type { MeasureEntry, MeasureKind } from "./types";

/**
 * The set measures, over the whole retrieved list as one set: trec_eval's set_* family, computed by
 * the trec_eval port (trec-eval/measures-core.ts) so the numbers are trec_eval 10.0's.
 */
const reference = {
  test: "scripts/eval/trec-measures.test.ts",
  fixture: "test/fixtures/trec-small-trec_eval10/all_trec.qc.txt",
  source: "trec_eval 10.0's set_* measures on trec-small (all_trec, -c, -l 2, -J -M 20), and worked by hand",
};

function setEntry(
  kind: MeasureKind,
  family: string,
  definition: string,
  syntax: MeasureEntry["syntax"],
): MeasureEntry {
  return {
    kind,
    definition,
    syntax,
    aggregation: "mean",
    trecNames: {
      [family]: (beta) => ({
        params: family !== "set_F" || beta === null || beta === 1 ? [] : [`beta=${beta}`],
      }),
    },
    perQuery: (m, ranked, judged) =>
      trecFamilyValue(m, family, family === "set_F" ? String(m.beta ?? 1) : null, ranked, judged),
    reference,
  };
}

export const SetP = setEntry("SetP", "set_P", "relevant retrieved / retrieved", {
  params: ["rel"],
  cutoff: "none",
  describe: "SetP",
});
export const SetRelP = setEntry("SetRelP", "set_relative_P", "relevant retrieved / min(retrieved, R)", {
  params: ["rel"],
  cutoff: "none",
  describe: "SetRelP",
});
export const SetR = setEntry("SetR", "set_recall", "relevant retrieved / R", {
  params: ["rel"],
  cutoff: "none",
  describe: "SetR",
});
export const SetF = setEntry("SetF", "set_F", "(1 + β²) · SetP · SetR / (β² · SetP + SetR)", {
  params: ["rel", "beta"],
  cutoff: "none",
  describe: "SetF(beta=1)",
});
export const SetAP = setEntry("SetAP", "set_map", "SetP · SetR", {
  params: ["rel"],
  cutoff: "none",
  describe: "SetAP",
});
