import type { Db } from "../platform/client";
import { loadOfflineInput } from "../catalog/offline-input";
import { loadExpertLabels } from "../campaigns/campaign-labels";
import { packOfflineInput } from "../../scripts/offline/pack";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { computedAt, remember, resultKey } from "./cache";
import { inputVersion } from "./version";
import { resultParameters, type ResultRequest } from "./parameters";

/**
 * The offline report (tier 1) with the given settings, or null when there are no lists and gold
 * committees to report on yet. With a campaign's grades (the one asked for, else the newest graded one)
 * it also says what the committees are worth against the experts. Kept by settings and input version: the
 * same view on the same data is served without reading or resampling again; `fresh` computes it anew (the
 * analyst's Recompute).
 */
export async function offlineResult(
  db: Db,
  request: Omit<ResultRequest, "kind">,
  run: HeavyRunner,
  { fresh = false } = {},
) {
  const parameters = await resultParameters(db, { ...request, kind: "offline" });
  if (parameters.kind !== "offline") throw new Error("unreachable: an offline request gave other parameters");
  const version = await inputVersion(db);
  const computation = remember(
    resultKey({ parameters, version }),
    async (progress) => {
      const { kind: _kind, systems, campaign, ...options } = parameters;
      const input = await offlineReportInput(db, { systems, campaign });
      if (input.systems.length === 0 || input.gold.size === 0) return null;
      return run("offlineReport", { packed: packOfflineInput(input), options }, progress);
    },
    undefined,
    fresh,
  );
  const result = await computation;
  return { parameters, result, computedAt: computedAt(computation) };
}

/** What the offline report reads: the lists and committees, and a campaign's grades when there is one. */
export async function offlineReportInput(
  db: Db,
  { systems, campaign }: { systems?: string[]; campaign?: number },
) {
  const input = await loadOfflineInput(db, { systems });
  const expertLabels = await loadExpertLabels(db, campaign);
  if (expertLabels) input.expertLabels = expertLabels;
  return input;
}
