import { formatRate, plural } from "~/utils/format";

/** What the experiment page's summary line needs of an experiment. */
export interface ExperimentSummaryInput {
  coverage: number;
  seed: string;
  committeeCap: number;
  arms: { key: string; systemKey: string; weight: number; isControl: boolean }[];
}

/**
 * The experiment's settings in one sentence, every number with its unit: "Coverage 100% of conveners,
 * hash seed “s”, committee cap 5 members. Arms: A = base (weight 50.0%, control); …" (it read
 * "Coverage 1" and "weight 0.5" before: a share must say it is one).
 */
export function experimentSummary(e: ExperimentSummaryInput): string {
  const arms = e.arms
    .map((a) => `${a.key} = ${a.systemKey} (weight ${formatRate(a.weight)}${a.isControl ? ", control" : ""})`)
    .join("; ");
  return `Coverage ${formatRate(e.coverage)} of conveners, hash seed “${e.seed}”, committee cap ${plural(e.committeeCap, "member")}. Arms: ${arms}.`;
}
