import type { Db } from "../platform/client";
import { loadFairnessInput } from "../catalog/fairness-input";
import { loadGold } from "../catalog/offline-input";
import type { FairnessTarget } from "../../scripts/inputs/fairness-targets";
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
  /** Shares the analyst expects of some groups (the page's `target`), shown beside the measured ones. */
  targets?: FairnessTarget[];
}

/** attribute → value → share, as the fairness report takes targets. */
function targetMap(targets: readonly FairnessTarget[]) {
  const out = new Map<string, Map<string, number>>();
  for (const t of targets) out.set(t.attribute, (out.get(t.attribute) ?? new Map()).set(t.value, t.share));
  return out;
}

/**
 * The fairness and diversity figures of the offline tier (scripts/fairness) against the gold committees
 * (their groups' shares, exposure per unit of merit) and the analyst's targets, or null when no candidate
 * has a group attribute or no system has lists. Kept by settings and input version, like the report.
 */
export async function fairnessResult(db: Db, request: FairnessRequest, run: HeavyRunner) {
  const parameters = {
    ...request,
    minGroup: request.minGroup ?? DEFAULT_MIN_GROUP,
    targets: request.targets ?? [],
  };
  const version = await inputVersion(db);
  return remember(resultKey({ kind: "fairness", parameters, version }), async () => {
    const input = await loadFairnessInput(db, { systems: parameters.systems });
    if (input.attributes.size === 0 || input.lists.size === 0) return null;
    // The gold committees of the listed proposals: their groups' shares, and the merit for exposure per merit.
    const listed = new Set([...input.lists.values()].flatMap((m) => [...m.keys()]));
    const gold = await loadGold(db);
    const committees = new Map([...gold].filter(([p]) => listed.has(p)).map(([p, m]) => [p, [...m]]));
    const report = await run("fairnessReport", {
      ...input,
      committees,
      targets: targetMap(parameters.targets),
      ks: parameters.ks,
      minGroup: parameters.minGroup,
      bootstrap: { B: parameters.B, seed: parameters.seed },
    });
    return { parameters, report };
  });
}
