import { DEFAULT_SEED } from "../lib/defaults";
import type { Interval } from "../stats/bootstrap";
import { kHitP90, offlineReport } from "../offline/report";
import { unpackOfflineInput, type PackedOfflineInput } from "../offline/pack";
import { evaluateClickModels } from "./evaluate";
import { examinationCells, examinationIntervals } from "./examination-intervals";
import {
  armCtrIntervals,
  clusterIndex,
  ctrDifferenceIntervals,
  type ArmCounts,
  type ClickIntervalOptions,
} from "./intervals";
import { buildLog, Vocabulary, type RawSession } from "./log";
import type { Grades } from "./measures";
import { modelNames } from "./models";
import { keepKnownQueries, splitSessions } from "./split";

/**
 * The click models of one experiment, as the analyst's page and the `clicks` snapshot show them: the
 * reference table fitted on a seeded split of the experiment's convener sessions, perplexity by rank,
 * PBM's examination curve beside K_hit's display depth, and each arm's CTR corrected for position bias.
 * Pure (plain data in and out), so it runs in the app's worker pool.
 */

/** Fewer sessions than this and the page shows its empty state: a quarter of them (the test share) would
 *  be too few to evaluate ten models on, and PBM's rank parameters would rest on a handful of clicks. */
export const MIN_CLICK_SESSIONS = 100;

/** What is fitted: fixed for the page, so a snapshot's parameters say everything. */
export interface ClickModelSettings {
  seed: string;
  testShare: number;
  iterations: number;
  maxRank: number;
  /** Resamples of the intervals' bootstrap over conveners (seeded with `seed`). */
  B: number;
}

export interface ExperimentClicksInput {
  experiment: { key: string; name: string };
  settings: ClickModelSettings;
  /** The experiment's sessions (db/experiments/experiments/click-sessions.ts) and, parallel, the arm of each. */
  sessions: RawSession[];
  arms: string[];
  /** The convener of each session, parallel to `sessions`: the intervals resample conveners. */
  units: string[];
  /** The arms in the experiment's order, with the system each shows; differences are taken vs `control`. */
  armSystems: { arm: string; system: string; control?: boolean }[];
  /** Historical committees: proposal → its members (the relevance labels; rel = 1, other candidates 0). */
  committees: [string, string[]][];
  /** The tier-1 input restricted to the arms' systems, for K_hit; null when there is none. */
  offline: PackedOfflineInput | null;
}

export interface ClickModelRow {
  name: string;
  logLikelihood: number;
  perplexity: number;
  perplexityByRank: number[];
  ctrPredictionRmse: number;
  relevanceAuc: number | null;
  rankingNdcg5: number | null;
  trainSeconds: number;
  /** 95% bootstrap intervals over conveners (absent in snapshots frozen before they existed). */
  logLikelihoodCi?: Interval | null;
  perplexityCi?: Interval | null;
  perplexityByRankCi?: (Interval | null)[];
  /** Over the conveners of the judged occurrences' sessions. */
  relevanceAucCi?: Interval | null;
  /** Over proposals: each of their terms belongs to one proposal. */
  ctrPredictionRmseCi?: Interval | null;
  rankingNdcg5Ci?: Interval | null;
}

export interface ArmClicks {
  arm: string;
  sessions: number;
  /** Results shown within the first `maxRank` of each session's first impression, and clicks on them. */
  shown: number;
  clicks: number;
  ctr: number | null;
  /** Σ over clicks of 1 / examination(rank), over `shown`: the CTR had every result been looked at as rank 1 is. */
  correctedCtr: number | null;
  /** 95% bootstrap intervals over the arm's conveners, the examination curve held fixed. */
  ctrCi?: Interval | null;
  correctedCtrCi?: Interval | null;
  /**
   * This arm's CTRs minus the control arm's, with bootstrap intervals over each arm's conveners; absent
   * for the control arm and in snapshots frozen before it was shown.
   */
  difference?: ArmDifference;
}

export interface ArmDifference {
  control: string;
  ctr: number | null;
  ctrCi: Interval | null;
  correctedCtr: number | null;
  correctedCtrCi: Interval | null;
}

export interface ExaminationPoint {
  rank: number;
  fitted: number;
  relative: number;
  relativeCi?: Interval | null;
}

export interface DisplayDepth {
  arm: string;
  system: string;
  /** Null when the system has no lists or its proposals no committees. */
  depth: number | null;
  /**
   * K_hit's 90th percentile, whose ceiling is the depth, with its CI as the offline page computes it
   * (B = the page's, seed "assay"); absent in snapshots frozen before it was shown.
   */
  kHitP90?: { value: number | null; ci: Interval | null };
}

export interface ExperimentClicksResult {
  experiment: { key: string; name: string };
  settings: ClickModelSettings;
  sessions: number;
  /** MIN_CLICK_SESSIONS, for the empty state's sentence. */
  minSessions: number;
  /** Null when there are fewer than MIN_CLICK_SESSIONS sessions: nothing is fitted. */
  fit: {
    train: number;
    test: number;
    /** Test sessions left out because their proposal never occurs in training. */
    dropped: number;
    labels: { source: "historical committees"; proposals: number } | null;
    models: ClickModelRow[];
    /**
     * PBM's examination per rank: as fitted, and relative to rank 1 (the curve shown), with the relative
     * value's 95% interval from refitting PBM on resampled conveners (absent in older snapshots).
     */
    examination: ExaminationPoint[];
    displayDepth: DisplayDepth[];
    arms: ArmClicks[];
  } | null;
}

/**
 * Fits and evaluates every model on the experiment's sessions (see the module's comment). Progress
 * counts fits: the twelve models, then PBM's B refits for its curve's intervals.
 */
export function experimentClicks(
  input: ExperimentClicksInput,
  onProgress?: (done: number, total: number) => void,
): ExperimentClicksResult {
  const { experiment, settings, sessions } = input;
  if (sessions.length < MIN_CLICK_SESSIONS)
    return { experiment, settings, sessions: sessions.length, minSessions: MIN_CLICK_SESSIONS, fit: null };
  const { train, test } = splitSessions(sessions, settings.testShare, settings.seed);
  const { kept, dropped } = keepKnownQueries(train, test);
  const grades = committeeGrades(input.committees, sessions);
  const unitOf = new Map(sessions.map((s, i) => [s.id, input.units[i]]));
  const intervals = { B: settings.B, seed: settings.seed };
  const fits = modelNames.length + settings.B;
  const report = evaluateClickModels(train, kept, {
    models: [...modelNames],
    iterations: settings.iterations,
    maxRank: settings.maxRank,
    grades: grades.size ? grades : undefined,
    intervals: { ...intervals, clusterOf: (id) => unitOf.get(id) ?? id },
    onProgress: onProgress && ((done) => onProgress(done, fits)),
  });
  const models = Object.entries(report.models).map(([name, m]) => ({
    name,
    logLikelihood: m.logLikelihood,
    perplexity: m.perplexity,
    perplexityByRank: m.perplexityByRank,
    ctrPredictionRmse: m.ctrPredictionRmse,
    relevanceAuc: m.relevanceAuc,
    rankingNdcg5: m.rankingNdcg5,
    trainSeconds: m.trainSeconds,
    logLikelihoodCi: m.intervals?.logLikelihood ?? null,
    perplexityCi: m.intervals?.perplexity ?? null,
    perplexityByRankCi: m.intervals?.perplexityByRank ?? [],
    relevanceAucCi: m.intervals?.relevanceAuc ?? null,
    ctrPredictionRmseCi: m.intervals?.ctrPredictionRmse ?? null,
    rankingNdcg5Ci: m.intervals?.rankingNdcg5 ?? null,
  }));
  const fitted = report.models.PBM.params.examination as number[];
  const examination = examinationCurve(fitted);
  const cis = examinationCis(train, unitOf, settings, (done) => onProgress?.(modelNames.length + done, fits));
  examination.forEach((e, r) => (e.relativeCi = cis[r] ?? null));
  return {
    experiment,
    settings,
    sessions: sessions.length,
    minSessions: MIN_CLICK_SESSIONS,
    fit: {
      train: train.length,
      test: kept.length,
      dropped,
      labels: grades.size ? { source: "historical committees", proposals: grades.size } : null,
      models,
      examination,
      displayDepth: displayDepths(input),
      arms: armClicks(
        input,
        examination.map((e) => e.relative),
        intervals,
      ),
    },
  };
}

/**
 * The examination curve's intervals: PBM refitted on B resamples of the training sessions' conveners
 * (examination-intervals.ts), with the page's passes and seed.
 */
function examinationCis(
  train: RawSession[],
  unitOf: Map<string, string>,
  settings: ClickModelSettings,
  onRefit: (done: number) => void,
) {
  const log = buildLog(train, new Vocabulary(), settings.maxRank);
  const clusters = clusterIndex(train.map((s) => unitOf.get(s.id) ?? s.id));
  return examinationIntervals(
    examinationCells(log, clusters.of),
    clusters.count,
    settings.iterations,
    { B: settings.B, seed: settings.seed },
    onRefit,
  );
}

/**
 * PBM's examination per rank, and relative to rank 1. PBM's likelihood depends only on α·γ, so the
 * fitted γ is known up to a common factor (EM settles wherever its start leads); taking rank 1 as always
 * looked at (γ₁ = 1, the usual assumption of position-bias estimation) fixes it.
 */
export function examinationCurve(fitted: readonly number[]): ExaminationPoint[] {
  return fitted.map((g, r) => ({ rank: r + 1, fitted: g, relative: fitted[0] > 0 ? g / fitted[0] : 0 }));
}

/**
 * Graded labels from the historical committees: for each proposal with a committee, every candidate the
 * sessions showed gets 1 when a member and 0 otherwise (the offline report's relevance, DESIGN.md).
 */
export function committeeGrades(committees: [string, string[]][], sessions: readonly RawSession[]): Grades {
  const members = new Map(committees.filter(([, c]) => c.length).map(([p, c]) => [p, new Set(c)]));
  const grades: Grades = new Map();
  for (const s of sessions) {
    const committee = members.get(s.query);
    if (!committee) continue;
    let judged = grades.get(s.query);
    if (!judged) grades.set(s.query, (judged = new Map()));
    for (const d of s.results) judged.set(d, committee.has(d) ? 1 : 0);
  }
  return grades;
}

/**
 * Raw and position-bias-corrected CTR per arm, over the same results: each click weighted by the inverse
 * of the examination (relative to rank 1) at its rank, an inverse-propensity estimate of the CTR had every
 * result been looked at as rank 1 is. One PBM for every arm: the bias is the page's, not the ranker's.
 * With `intervals`, each ratio's bootstrap interval over the arm's conveners (`units`).
 */
export function armClicks(
  input: Pick<ExperimentClicksInput, "sessions" | "arms" | "armSystems" | "settings"> & { units?: string[] },
  examination: readonly number[],
  intervals?: ClickIntervalOptions,
): ArmClicks[] {
  const byArm = new Map(
    input.armSystems.map((a) => [
      a.arm,
      { arm: a.arm, sessions: 0, shown: 0, clicks: 0, weighted: 0, units: new Map<string, number[]>() },
    ]),
  );
  input.sessions.forEach((s, i) => {
    const arm = byArm.get(input.arms[i]);
    if (!arm) return;
    const n = Math.min(s.results.length, input.settings.maxRank);
    let clicks = 0;
    let weighted = 0;
    for (let r = 0; r < n; r++) {
      if (!s.clicks[r]) continue;
      clicks++;
      weighted += 1 / examination[r];
    }
    arm.sessions++;
    arm.shown += n;
    arm.clicks += clicks;
    arm.weighted += weighted;
    const unit = input.units?.[i] ?? s.id;
    const sums = arm.units.get(unit) ?? arm.units.set(unit, [0, 0, 0]).get(unit)!;
    sums[0] += n;
    sums[1] += clicks;
    sums[2] += weighted;
  });
  const counts = new Map([...byArm].map(([arm, a]) => [arm, armCounts([...a.units.values()])]));
  const control = (input.armSystems.find((a) => a.control) ?? input.armSystems[0])?.arm;
  const rows = [...byArm.values()].map(({ weighted, units: _units, ...a }) => ({
    ...a,
    ctr: a.shown ? a.clicks / a.shown : null,
    correctedCtr: a.shown ? weighted / a.shown : null,
    ...(intervals ? ctrIntervals(counts.get(a.arm)!, a.arm, intervals) : {}),
  }));
  const base = rows.find((a) => a.arm === control);
  return rows.map((a) =>
    base && a !== base
      ? {
          ...a,
          difference: armDifference(
            base,
            a,
            intervals && [counts.get(base.arm)!, counts.get(a.arm)!],
            intervals,
          ),
        }
      : a,
  );
}

/** An arm's conveners' sums (shown, clicks, weighted clicks) as columns. */
function armCounts(units: number[][]): ArmCounts {
  const column = (j: number) => Float64Array.from(units, (u) => u[j]);
  return { shown: column(0), clicks: column(1), weighted: column(2) };
}

/** An arm's CTR intervals from its conveners' sums. */
function ctrIntervals(counts: ArmCounts, arm: string, options: ClickIntervalOptions) {
  const { ctr, correctedCtr } = armCtrIntervals(counts, { ...options, arm });
  return { ctrCi: ctr, correctedCtrCi: correctedCtr };
}

/** `arm`'s CTRs minus the control's, with intervals when the counts and options are given. */
function armDifference(
  control: ArmClicks,
  arm: ArmClicks,
  counts: [ArmCounts, ArmCounts] | undefined,
  options: ClickIntervalOptions | undefined,
): ArmDifference {
  const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
  const cis =
    counts && options ? ctrDifferenceIntervals(counts[0], counts[1], { ...options, arm: arm.arm }) : null;
  return {
    control: control.arm,
    ctr: minus(arm.ctr, control.ctr),
    ctrCi: cis?.ctr ?? null,
    correctedCtr: minus(arm.correctedCtr, control.correctedCtr),
    correctedCtrCi: cis?.correctedCtr ?? null,
  };
}

/**
 * Each arm's suggested display depth: K_hit's 90th percentile, rounded up, of its system (tier 1), with
 * the percentile's interval. The report runs with one resample (its other intervals are not shown here);
 * the percentile's interval is then drawn as the offline report draws it, at the page's B.
 */
function displayDepths(input: ExperimentClicksInput): DisplayDepth[] {
  const report = input.offline
    ? offlineReport(unpackOfflineInput(input.offline), { ks: [10], B: 1, seed: DEFAULT_SEED })
    : null;
  return input.armSystems.map(({ arm, system }) => {
    const found = report?.systems.find((s) => s.key === system);
    const p90 = found
      ? kHitP90(found.kHitValues, system, {
          B: input.settings.B,
          seed: DEFAULT_SEED,
          level: 0.95,
          strata: null,
        })
      : null;
    return {
      arm,
      system,
      depth: found?.hints.displayDepth ?? null,
      ...(p90 ? { kHitP90: { value: p90.value, ci: p90.ci } } : {}),
    };
  });
}
