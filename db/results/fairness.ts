import type { Db, DbOrTx } from "../platform/client";
import { readConsistently } from "../platform/consistent-read";
import { loadFairnessInput } from "../catalog/fairness-input";
import { loadGold } from "../catalog/offline-input";
import type { FairnessTarget } from "../../scripts/inputs/fairness-targets";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { DEFAULT_MIN_GROUP } from "../../scripts/fairness/report";
import { remember, resultKey } from "./cache";
import { inputVersion, versionOfKind, type InputVersion } from "./version";

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
 * has a group attribute or no system has lists. Kept by settings and input version, like the report; the
 * version and the inputs are read in one repeatable-read transaction (see `fairnessComputation`).
 */
export async function fairnessResult(db: Db, request: FairnessRequest, run: HeavyRunner) {
  const { computation } = await readConsistently(db, async (tx) => {
    const started = fairnessComputation(tx, await inputVersion(tx), request, run);
    await started.read;
    return { computation: started.computation };
  });
  return computation;
}

/**
 * The fairness figures at `version`, read through `db` — a repeatable-read transaction that read
 * `version`, such as the offline report's, so the section describes exactly the data the report does.
 * `read` settles once the inputs are read (at once when the figures are kept already): the caller keeps
 * its transaction open until then, never for the bootstrap.
 */
export function fairnessComputation(
  db: DbOrTx,
  version: InputVersion,
  request: FairnessRequest,
  run: HeavyRunner,
) {
  const parameters = {
    ...request,
    minGroup: request.minGroup ?? DEFAULT_MIN_GROUP,
    targets: request.targets ?? [],
  };
  const reads: Promise<unknown>[] = [];
  // Kept by what the section reads only: grades and events leave it as it is.
  const readVersion = versionOfKind("fairness", version);
  const computation = remember(
    resultKey({ kind: "fairness", parameters, version: readVersion }),
    async () => {
      const reading = Promise.all([loadFairnessInput(db, { systems: parameters.systems }), loadGold(db)]);
      reads.push(reading);
      const [input, gold] = await reading;
      if (input.attributes.size === 0 || input.lists.size === 0) return null;
      // The gold committees of the listed proposals: their groups' shares, and the merit for exposure per merit.
      const listed = new Set([...input.lists.values()].flatMap((m) => [...m.keys()]));
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
    },
  );
  return { computation, read: Promise.all(reads).then(() => undefined) };
}
