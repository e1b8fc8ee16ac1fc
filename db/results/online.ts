import type { Db } from "../platform/client";
import { getExperiment } from "../experiments/experiments";
import { sqlStreamTotals } from "../experiments/online-sql";
import { packStreamTotals } from "../../scripts/online/pack";
import { cumulativeDailyWithIntervals } from "../../scripts/online/daily-intervals";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { remember, resultKey } from "./cache";
import { inputVersion } from "./version";
import { resultParameters, type ResultRequest } from "./parameters";

/**
 * An A/B experiment's result (tier 3): the report with its intervals and the cumulative day-by-day
 * values, from the per-session totals the dashboard and `assay online` share; `report` is null before
 * the first event. `perArm` (events and sessions per arm) is what the page's counts start from.
 */
export async function onlineResult(
  db: Db,
  request: Omit<ResultRequest, "kind" | "experiment"> & { experiment: string },
  run: HeavyRunner,
) {
  const parameters = await resultParameters(db, { ...request, kind: "online" });
  if (parameters.kind !== "online") throw new Error("unreachable: an online request gave other parameters");
  const version = await inputVersion(db);
  const computed = await remember(resultKey({ parameters, version }), async () => {
    const experiment = (await getExperiment(db, parameters.experiment))!;
    // Aggregated to sessions in SQL: the app holds O(sessions), not O(events).
    const totals = await sqlStreamTotals(db, experiment);
    const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
    const { B, seed, control, intervals } = parameters;
    // Sequential intervals only when asked for: a fixed report stays exactly what it always was.
    const sequential = intervals === "sequential" ? { intervalKind: intervals, nStar: parameters.nStar } : {};
    const report = totals.events
      ? await run("onlineReport", {
          packed: packStreamTotals(totals),
          options: { weights, control, intervals: true, B, seed, ...sequential },
        })
      : null;
    return {
      experiment: { key: experiment.key, name: experiment.name },
      report,
      daily: totals.events ? cumulativeDailyWithIntervals(totals.sessions) : [],
      perArm: totals.perArm,
      events: totals.events,
    };
  });
  return { parameters, ...computed };
}
