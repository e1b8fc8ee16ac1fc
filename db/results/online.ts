import type { Db } from "../platform/client";
import { getExperiment } from "../experiments/experiments";
import { sqlPrePeriodTotals, sqlStreamTotals } from "../experiments/online-sql";
import { prePeriodProblem } from "../experiments/analysis-settings";
import type { ExperimentWithArms } from "../experiments/experiments";
import { decide, DEFAULT_DECISION_SETTINGS, type DecisionSettings } from "../../scripts/online/decide";
import { decideSlicesBothWays, sliceBySession, sliceByUnit } from "../../scripts/online/slices";
import { loadConvenerAttributes } from "../experiments/convener-attributes";
import type { SessionSums } from "../../scripts/online/report";
import { packStreamTotals } from "../../scripts/online/pack";
import { cumulativeDailyWithIntervals } from "../../scripts/online/daily-intervals";
import { evaluateGuardrails, guardrailStanding, guardrailUnits } from "../../scripts/online/guardrails";
import { PAGE_B } from "../../scripts/lib/defaults";
import { compositionResult } from "./online-composition";
import { isCompositionGuardrail } from "../../scripts/inputs/guardrails";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { computedAt, remember, resultKey } from "./cache";
import { inputVersion } from "./version";
import { abParameters, resultParameters, type ResultRequest } from "./parameters";

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
  const resolved = await resultParameters(db, { ...request, kind: "online" });
  if (resolved.kind !== "online") throw new Error("unreachable: an online request gave other parameters");
  // An interleaving experiment's admin page counts its sessions per arm as an A/B page would.
  const parameters =
    "method" in resolved
      ? abParameters((await getExperiment(db, resolved.experiment))!, { ...request, B: resolved.B })
      : resolved;
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
      const base = report?.comparisons[0]?.control ?? control;
      const decisions = report ? await decisionsOf(db, experiment, totals, base, parameters) : null;
      return {
        experiment: { key: experiment.key, name: experiment.name },
        report,
        decisions,
        guardrails: report ? guardrailsOf(experiment, totals, base) : [],
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

/** Each guardrail of the experiment per treatment arm, from its sessions (scripts/online/guardrails.ts). */
function guardrailsOf(
  experiment: ExperimentWithArms,
  totals: Awaited<ReturnType<typeof sqlStreamTotals>>,
  control: string | undefined,
) {
  const base = control ?? experiment.arms.find((a) => a.isControl)?.key;
  // Share guardrails are read with the composition of adopted candidates (onlineComposition).
  const rates = experiment.guardrails.filter((g) => !isCompositionGuardrail(g));
  if (rates.length === 0 || base === undefined) return [];
  return evaluateGuardrails(guardrailUnits(totals.guardrailSessions), base, rates);
}

/**
 * Every guardrail reading of the experiment at the page's settings (its B and seed): the ratio guardrails
 * of an A/B experiment from the per-session table, and the share guardrails from the composition of
 * adopted candidates — the same cached result the page shows, so the list and the page agree.
 */
export async function guardrailReadings(db: Db, experiment: ExperimentWithArms, run: HeavyRunner) {
  const control = experiment.arms.find((a) => a.isControl)?.key;
  const rates =
    experiment.kind === "ab" && experiment.guardrails.some((g) => !isCompositionGuardrail(g))
      ? guardrailsOf(experiment, await sqlStreamTotals(db, experiment), control)
      : [];
  const shares = experiment.guardrails.some(isCompositionGuardrail)
    ? ((await compositionResult(db, experiment, { B: PAGE_B, seed: experiment.seed }, run))?.guardrails ?? [])
    : [];
  return { rates, shares };
}

/**
 * The keys of the experiments (of those given) with a failing guardrail, ratio or share: the experiment
 * list's flag, by the page's reading (guardrailStanding). The ratio guardrails need no bootstrap; share
 * guardrails need the composition's, which the page shares through the result cache.
 */
export async function experimentsWithFailingGuardrail(
  db: Db,
  keys: readonly string[],
  run: HeavyRunner,
): Promise<Set<string>> {
  const failing = new Set<string>();
  for (const key of keys) {
    const experiment = await getExperiment(db, key);
    if (!experiment || experiment.guardrails.length === 0) continue;
    const { rates, shares } = await guardrailReadings(db, experiment, run);
    if (guardrailStanding([...rates, ...shares]).failing > 0) failing.add(key);
  }
  return failing;
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
  totals: Awaited<ReturnType<typeof sqlStreamTotals>>,
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
    slices: slicesOf(totals, base, { ...settings, engine: "frequentist" }, pre),
    convenerSlices: convenerSlicesOf(
      totals,
      await loadConvenerAttributes(db),
      base,
      { ...settings, engine: "frequentist" },
      pre,
    ),
  };
}

/**
 * The decisions by the subject of each session's proposal (from the database, not a file), with the
 * p-values of every slice and metric adjusted both ways (Holm, Benjamini–Hochberg) so the page's
 * choice needs no new request. Frequentist: an adjusted p needs a p.
 */
function slicesOf(
  totals: Awaited<ReturnType<typeof sqlStreamTotals>>,
  control: string,
  settings: DecisionSettings,
  pre: ReadonlyMap<string, SessionSums> | undefined,
) {
  const slices = sliceBySession(totals.sessions, totals.subjectOfSession);
  return { attribute: "subject" as const, ...decideSlicesBothWays(slices, control, settings, { pre }) };
}

/**
 * The decisions by each imported convener attribute (institution, seniority …), one table per attribute,
 * each adjusted across its own slices and metrics both ways, as the subject's are: the page shows one
 * attribute at a time, so each is a family of its own.
 */
function convenerSlicesOf(
  totals: Awaited<ReturnType<typeof sqlStreamTotals>>,
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>,
  control: string,
  settings: DecisionSettings,
  pre: ReadonlyMap<string, SessionSums> | undefined,
) {
  return [...attributes.keys()].sort().map((attribute) => {
    const slices = sliceByUnit(totals.units, attributes.get(attribute)!);
    return { attribute, ...decideSlicesBothWays(slices, control, settings, { pre }) };
  });
}
