import { offlineReport, type OfflineOptions } from "../offline/report";
import { unpackOfflineInput, type PackedOfflineInput } from "../offline/pack";
import { reportFromTotals, type OnlineOptions } from "../online/report";
import { unpackStreamTotals, type PackedStreamTotals } from "../online/pack";
import { campaignResults, learningCurve, type CampaignData } from "../judgement/campaign-results";
import { agreementReport, type Rating } from "../judgement/agreement";
import { experimentClicks } from "../clicks/experiment-report";
import { interleavingFigures, type InterleavingFiguresInput } from "../interleaving/figures";
import { multileavingFigures } from "../interleaving/multileave-results";
import { interleavingSlicesOfPage } from "../interleaving/slices";
import { multileavingSlicesOfPage } from "../interleaving/multileave-slices";
import { goldReport, type GoldReportOptions } from "../judgement/gold-report";
import { aggregateItems, type AggregationMethod, type GradedRating } from "../judgement/aggregate";
import { fairnessReport } from "../fairness/report";
import { adoptedComposition, gradesByGroup } from "../fairness/composition";
import type { ItemText } from "../judgement/clustering";
import { textReport } from "../judgement/text-report";
import { needsAnotherGrade } from "../judgement/needs-grade";

/** How many pairs the "needs another grade" list shows. */
const NEEDS_GRADE_ROWS = 20;

/** The pairs whose next grade would move the systems' nDCG@10 order most; adjudicated pairs are settled. */
export function pairsNeedingGrades(data: CampaignData) {
  const settled = new Set(data.pairs.filter((p) => p.adjudicated !== null).map((p) => String(p.itemId)));
  const pairs = data.pairs.map((p) => {
    const judged = p.grades.filter((g) => g.grade !== null);
    return {
      item: String(p.itemId),
      proposal: p.proposal,
      candidate: p.candidate,
      grades: judged.map((g) => g.grade!),
      // Who graded: with enough experts the next grade's chances come from Dawid–Skene's posterior.
      raters: judged.map((g) => g.expert),
    };
  });
  return needsAnotherGrade(pairs, data.systems, 10)
    .filter((r) => !settled.has(r.item) && r.changeChance > 0)
    .slice(0, NEEDS_GRADE_ROWS);
}
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
    needsGrade: data ? pairsNeedingGrades(data) : [],
  }),
  experimentClicks,
  interleavingFigures: (input: InterleavingFiguresInput) => interleavingFigures(input),
  /** Two systems' win rates by subject and by each convener attribute, p adjusted across each table. */
  interleavingSlices: interleavingSlicesOfPage,
  /** A multileaved experiment's preference matrix and ranking, by click and by adoption credit. */
  multileavingFigures,
  /** A multileave's preference matrices by subject and by each convener attribute, p adjusted across each table. */
  multileavingSlices: multileavingSlicesOfPage,
  /** Group fairness and diversity of the systems' lists (Maps and Sets cross to a worker as they are). */
  fairnessReport,
  /** Each group's share among a campaign's pairs graded 3–4 against all graded pairs and the pool. */
  gradesByGroup,
  /** Each group's share among the adopted candidates of each A/B arm or interleaving team. */
  adoptedComposition,
  /** A campaign's gold figures: rater and aggregation accuracy against the known grades, learning curves. */
  goldFigures: (
    input: {
      ratings: GradedRating[];
      truth: [string, number][];
      options: Omit<GoldReportOptions, "onProgress">;
      /** The items' texts (the candidates' profiles as the experts saw them): adds the text-aware figures. */
      texts?: ItemText[];
    },
    onProgress?: OnProgress,
  ) => {
    const truth = new Map(input.truth);
    const { draws, seed, coinTies } = input.options;
    return {
      ...goldReport(input.ratings, truth, { ...input.options, onProgress }),
      texts: input.texts?.length
        ? textReport(input.texts, input.ratings, truth, { draws, seed: `${seed}:texts`, coinTies })
        : null,
    };
  },
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
