import type { Db, DbOrTx } from "../platform/client";
import { readConsistently } from "../platform/consistent-read";
import { loadOfflineInput } from "../catalog/offline-input";
import { loadExpertLabels } from "../campaigns/campaign-labels";
import { packOfflineInput } from "../../scripts/offline/pack";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import type { OfflineInput } from "../../scripts/offline/report";
import type { ExpertLabels } from "../../scripts/offline/ground-truth";
import { canonicalJson, sha256 } from "../../scripts/lib/canonical";
import { computedAt, remember, resultKey } from "./cache";
import { inputVersion, versionOfKind } from "./version";
import { resultParameters, type ResultRequest } from "./parameters";
import { fairnessComputation } from "./fairness";
import type { FairnessTarget } from "../../scripts/inputs/fairness-targets";

/**
 * The offline report (tier 1) with the given settings, or null when there are no lists and gold
 * committees to report on yet. With a campaign's grades (the one asked for, else the newest graded one)
 * it also says what the committees are worth against the experts. Kept by settings, the version of the
 * lists and committees it reads and the labels its grades make: the same view on the same data is served
 * without resampling again, while experts grade too unless a label changed; `fresh` computes it anew (the
 * analyst's Recompute).
 *
 * The version and every input (lists, committees, conflicts, a running campaign's grades) are read in one
 * repeatable-read transaction, so the result is the report on exactly the data `version` describes, even
 * while experts grade: a snapshot records that version and needs no second read to check it. The
 * transaction lasts only for the reads; the bootstrap runs after it.
 */
export async function offlineResult(
  db: Db,
  request: Omit<ResultRequest, "kind">,
  run: HeavyRunner,
  {
    fresh = false,
    grades,
    fairness,
  }: {
    fresh?: boolean;
    grades?: ExpertLabels;
    /** Also the "Fairness and diversity" section, on the report's K grid, B, seed and systems, with these targets. */
    fairness?: { targets?: FairnessTarget[] };
  } = {},
) {
  const parameters = await resultParameters(db, { ...request, kind: "offline" });
  if (parameters.kind !== "offline") throw new Error("unreachable: an offline request gave other parameters");
  const { kind: _kind, systems, campaign, ...options } = parameters;
  const { version, computation, fairnessFigures } = await readConsistently(db, async (tx) => {
    const version = await inputVersion(tx);
    // The grades are read first (one query) and the report kept by the labels they make, not by the
    // ratings' count and newest time: an expert's save that changes no label (a rationale, a grade on a
    // pair the median does not move, another campaign) leaves the report kept, so a freeze meanwhile
    // computes nothing new.
    const labels = grades ?? (await loadExpertLabels(tx, campaign));
    // `remember` calls its function at once when nothing is kept under this key: the inputs are then read
    // here, inside the transaction, and the transaction waits for them (never for the bootstrap).
    const reads: Promise<OfflineInput>[] = [];
    const computation = remember(
      resultKey({
        parameters,
        version: versionOfKind("offlineLists", version),
        grades: labels ? labelsDigest(labels) : null,
      }),
      async (progress) => {
        const reading = offlineReportInput(tx, { systems, campaign, grades: labels ?? undefined });
        reads.push(reading);
        const input = await reading;
        if (input.systems.length === 0 || input.gold.size === 0) return null;
        return run("offlineReport", { packed: packOfflineInput(input), options }, progress);
      },
      undefined,
      fresh,
    );
    // The fairness section reads its lists and attributes in this same transaction, at this version.
    const { ks, B, seed } = parameters;
    const section = fairness
      ? fairnessComputation(tx, version, { ks, B, seed, systems, targets: fairness.targets }, run)
      : null;
    await Promise.all([...reads, section?.read]);
    return { version, computation, fairnessFigures: section ? { at: section.computation } : null };
  });
  const result = await computation;
  // Only beside a report: no lists and committees, no section.
  const fairnessSection = fairnessFigures && result ? await fairnessFigures.at : null;
  return { parameters, result, computedAt: computedAt(computation), version, fairness: fairnessSection };
}

/**
 * What the offline report reads: the lists and committees, and a campaign's grades when there is one, or
 * instead the grades given (`assay offline --grades FILE`).
 */
export async function offlineReportInput(
  db: DbOrTx,
  { systems, campaign, grades }: { systems?: string[]; campaign?: number; grades?: ExpertLabels },
) {
  const input = await loadOfflineInput(db, { systems });
  const expertLabels = grades ?? (await loadExpertLabels(db, campaign));
  if (expertLabels) input.expertLabels = expertLabels;
  return input;
}

/** Grades given from a file, as part of a result's key: their source and every label, hashed. */
function labelsDigest({ source, labels }: ExpertLabels) {
  const pairs = [...labels].flatMap(([proposal, graded]) =>
    [...graded].map(([candidate, grade]) => [proposal, candidate, grade]),
  );
  return sha256(canonicalJson({ source, pairs: pairs.sort() }));
}
