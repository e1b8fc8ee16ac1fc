import type { Db } from "../platform/client";
import { loadFairnessInput } from "../catalog/fairness-input";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { DEFAULT_MIN_GROUP } from "../../scripts/fairness/report";
import { remember, resultKey } from "./cache";
import { inputVersion } from "./version";

export interface FairnessRequest {
  ks: number[];
  B: number;
  seed: string;
  systems?: string[];
  minGroup?: number;
}

/**
 * The fairness and diversity figures of the offline tier (scripts/fairness), or null when no candidate
 * has a group attribute or no system has lists. Kept by settings and input version, like the report.
 */
export async function fairnessResult(db: Db, request: FairnessRequest, run: HeavyRunner) {
  const parameters = { ...request, minGroup: request.minGroup ?? DEFAULT_MIN_GROUP };
  const version = await inputVersion(db);
  return remember(resultKey({ kind: "fairness", parameters, version }), async () => {
    const input = await loadFairnessInput(db, { systems: parameters.systems });
    if (input.attributes.size === 0 || input.lists.size === 0) return null;
    const report = await run("fairnessReport", {
      ...input,
      ks: parameters.ks,
      minGroup: parameters.minGroup,
      bootstrap: { B: parameters.B, seed: parameters.seed },
    });
    return { parameters, report };
  });
}
