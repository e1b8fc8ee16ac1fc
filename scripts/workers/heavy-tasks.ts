import { offlineReport, type OfflineOptions } from "../offline/report";
import { unpackOfflineInput, type PackedOfflineInput } from "../offline/pack";
import { reportFromTotals, type OnlineOptions } from "../online/report";
import { unpackStreamTotals, type PackedStreamTotals } from "../online/pack";
import { campaignResults, learningCurve, type CampaignData } from "../judgement/campaign-results";
import { agreementReport, type Rating } from "../judgement/agreement";
import { experimentClicks } from "../clicks/experiment-report";
import { interleavingFigures, type InterleavingFiguresInput } from "../interleaving/figures";
import { goldReport, type GoldReportOptions } from "../judgement/gold-report";
import { aggregateItems, type AggregationMethod, type GradedRating } from "../judgement/aggregate";
import { fairnessReport } from "../fairness/report";
import { progressWriter, type ProgressCells } from "../lib/progress";

/** How a task reports how far it has got (models fitted, draws done); see scripts/lib/progress.ts. */
type OnProgress = (done: number, total: number) => void;

/** What a campaign's figures need: the grades for agreement, the graded pairs for results and the curve. */
export interface CampaignFiguresInput {
  /** Judged grades; no agreement without any. */
  ratings: Rating[];
  /** The graded pairs and lists; null when no results are wanted. */
  data: CampaignData | null;
  options: { B: number; seed: string; ks?: number[] };
  /** The learning curve's draws; none when absent. */
  curve?: { samples: number; seed: string };
}

/**
 * The heavy computations of the app (bootstraps and resampling), each a pure function of plain data
 * that can cross to a worker thread: the app loads the data on its event loop and runs these in the
 * pool (app/results/worker-pool.server.ts); the CLI and the tests may call them in-process.
 */
export const heavyTasks = {
  offlineReport: (
    input: { packed: PackedOfflineInput; options: Omit<OfflineOptions, "onProgress"> },
    onProgress?: OnProgress,
  ) => offlineReport(unpackOfflineInput(input.packed), { ...input.options, onProgress }),
  onlineReport: (input: { packed: PackedStreamTotals; options: OnlineOptions }) =>
    reportFromTotals(unpackStreamTotals(input.packed), input.options),
  campaignFigures: ({ ratings, data, options, curve }: CampaignFiguresInput) => ({
    agreement: ratings.length
      ? agreementReport(ratings, "ordinal", { B: options.B, seed: options.seed })
      : null,
    results: data ? campaignResults(data, options) : null,
    curve: data && curve ? learningCurve(data, curve) : null,
  }),
  experimentClicks,
  interleavingFigures: (input: InterleavingFiguresInput) => interleavingFigures(input),
  /** Group fairness and diversity of the systems' lists (Maps and Sets cross to a worker as they are). */
  fairnessReport,
  /** A campaign's gold figures: rater and aggregation accuracy against the known grades, learning curves. */
  goldFigures: (
    input: {
      ratings: GradedRating[];
      truth: [string, number][];
      options: Omit<GoldReportOptions, "onProgress">;
    },
    onProgress?: OnProgress,
  ) => goldReport(input.ratings, new Map(input.truth), { ...input.options, onProgress }),
  /** Every item's label by one aggregation method (Dawid–Skene is an EM over all grades), as [item, grade] pairs. */
  aggregateLabels: (input: { ratings: GradedRating[]; method: AggregationMethod }) => [
    ...aggregateItems(input.ratings, input.method),
  ],
};

export type HeavyTask = keyof typeof heavyTasks;
export type HeavyInput<K extends HeavyTask> = Parameters<(typeof heavyTasks)[K]>[0];
export type HeavyOutput<K extends HeavyTask> = ReturnType<(typeof heavyTasks)[K]>;

/**
 * Runs a heavy task somewhere (this thread or a pool) and resolves with its result; a task that reports
 * progress writes it to `progress` as it goes (readable from any thread while it runs).
 */
export type HeavyRunner = <K extends HeavyTask>(
  task: K,
  input: HeavyInput<K>,
  progress?: ProgressCells,
) => Promise<HeavyOutput<K>>;

/** Runs `task` on this thread: for the CLI, which has no event loop to keep free. */
export const runInProcess: HeavyRunner = async (task, input, progress) =>
  runHeavyTask(task, input, progress && progressWriter(progress));

/**
 * Runs on this thread like `runInProcess`, with the offline report's bootstrap reporting its progress
 * (the CLI's bar): a callback cannot cross to a worker, so only an in-process run can report.
 */
export const runInProcessReporting =
  (onProgress: (done: number, total: number) => void): HeavyRunner =>
  async (task, input) =>
    task === "offlineReport"
      ? (offlineReport(unpackOfflineInput((input as HeavyInput<"offlineReport">).packed), {
          ...(input as HeavyInput<"offlineReport">).options,
          onProgress,
        }) as HeavyOutput<typeof task>)
      : runHeavyTask(task, input);

/** Calls the named task's function on `input`, with `onProgress` for the tasks that report it. */
export function runHeavyTask<K extends HeavyTask>(
  task: K,
  input: HeavyInput<K>,
  onProgress?: OnProgress,
): HeavyOutput<K> {
  const run = heavyTasks[task] as (input: HeavyInput<K>, onProgress?: OnProgress) => HeavyOutput<K>;
  if (typeof run !== "function") throw new Error(`There is no heavy task ${String(task)}.`);
  return run(input, onProgress);
}
