import type { Db } from "../platform/client";
import { getExperiment } from "../experiments/experiments";
import { sqlPrePeriodTotals, sqlStreamTotals } from "../experiments/online-sql";
import { prePeriodProblem } from "../experiments/analysis-settings";
import type { ExperimentWithArms } from "../experiments/experiments";
import { decide, DEFAULT_DECISION_SETTINGS, type DecisionSettings } from "../../scripts/online/decide";
import type { StreamTotals } from "../../scripts/online/report";
import { packStreamTotals } from "../../scripts/online/pack";
import { cumulativeDailyWithIntervals } from "../../scripts/online/daily-intervals";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { computedAt, remember, resultKey } from "./cache";
import { inputVersion } from "./version";
import { resultParameters, type ResultRequest } from "./parameters";

/**
 * An A/B experiment's result (tier 3): the report with its intervals and the cumulative day-by-day
 * values, from the per-session totals the dashboard and `assay online` share; `report` is null before
 * the first event. `perArm` (events and sessions per arm) is what the page's counts start from.
 * `fresh` computes it anew (the analyst's Recompute); `computedAt` says when it was.
 */
export async function onlineResult(
  db: Db,
  request: Omit<ResultRequest, "kind" | "experiment"> & { experiment: string },
  run: HeavyRunner,
  { fresh = false } = {},
) {
  const parameters = await resultParameters(db, { ...request, kind: "online" });
  if (parameters.kind !== "online") throw new Error("unreachable: an online request gave other parameters");
  const version = await inputVersion(db);
  const computation = remember(
    resultKey({ parameters, version }),
    async (progress) => {
      const experiment = (await getExperiment(db, parameters.experiment))!;
      // Aggregated to sessions in SQL: the app holds O(sessions), not O(events).
      const totals = await sqlStreamTotals(db, experiment);
      const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
      const { B, seed, control, intervals } = parameters;
      // Sequential intervals only when asked for: a fixed report stays exactly what it always was.
      const sequential =
        intervals === "sequential" ? { intervalKind: intervals, nStar: parameters.nStar } : {};
      const report = totals.events
        ? await run(
            "onlineReport",
            {
              packed: packStreamTotals(totals),
              options: { weights, control, intervals: true, B, seed, ...sequential },
            },
            progress,
          )
        : null;
      const decisions = report
        ? await decisionsOf(db, experiment, totals, report.comparisons[0]?.control ?? control, parameters)
        : null;
      return {
        experiment: { key: experiment.key, name: experiment.name },
        report,
        decisions,
        daily: totals.events ? cumulativeDailyWithIntervals(totals.sessions) : [],
        perArm: totals.perArm,
        events: totals.events,
      };
    },
    undefined,
    fresh,
  );
  const computed = await computation;
  return { parameters, ...computed, computedAt: computedAt(computation) };
}

/** The experiment's stored analysis settings, as the result records them (and so its snapshots). */
export function analysisOf(experiment: ExperimentWithArms) {
  return {
    engine: experiment.engine,
    cuped: experiment.cuped,
    prePeriodDays: experiment.prePeriodDays,
    prior:
      experiment.priorVariance === null
        ? DEFAULT_DECISION_SETTINGS.prior
        : {
            mean: experiment.priorMean,
            variance: experiment.priorVariance,
            proper: true,
            type: "relative" as const,
          },
  };
}

/**
 * GrowthBook-style figures of every metric under both engines, unadjusted and (when the experiment asks
 * for CUPED and the history covers the pre-period) with CUPED, so the page's toggles need no new request.
 * The pre-period ends at the experiment's start, or its first session when it has no recorded start.
 */
async function decisionsOf(
  db: Db,
  experiment: ExperimentWithArms,
  totals: StreamTotals & { sessions: { day: string }[] },
  control: string | undefined,
  parameters: { intervals?: string; nStar?: number },
) {
  const analysis = analysisOf(experiment);
  const firstDay = totals.sessions.reduce<string | null>(
    (m, s) => (m === null || s.day < m ? s.day : m),
    null,
  );
  const start = experiment.startedAt ?? (firstDay ? new Date(`${firstDay}T00:00:00Z`) : new Date());
  const from = new Date(start.getTime() - analysis.prePeriodDays * 86_400_000);
  const cupedProblem = analysis.cuped ? await prePeriodProblem(db, start, analysis.prePeriodDays) : null;
  const pre =
    analysis.cuped && !cupedProblem ? await sqlPrePeriodTotals(db, experiment.id, from, start) : undefined;
  const settings: DecisionSettings = {
    ...DEFAULT_DECISION_SETTINGS,
    intervals: parameters.intervals === "sequential" ? "sequential" : "fixed",
    nStar: parameters.nStar ?? DEFAULT_DECISION_SETTINGS.nStar,
    cuped: pre !== undefined,
    prior: analysis.prior,
  };
  const arms = [...new Set(totals.units.map((u) => u.arm))].sort();
  const base = control ?? arms[0];
  if (base === undefined) return null;
  return {
    analysis,
    prePeriod: pre ? { from: from.toISOString(), to: start.toISOString() } : null,
    cupedProblem: cupedProblem?.replace(/^prePeriodDays: /, "") ?? null,
    frequentist: decide(totals.units, base, { ...settings, engine: "frequentist" }, pre),
    bayesian: decide(totals.units, base, { ...settings, engine: "bayesian" }, pre),
  };
}
