import type { Db } from "../platform/client";
import { loadInterleavingData } from "../experiments/interleaving-data";
import type { ExperimentWithArms } from "../experiments/experiments";
import { PAGE_B } from "../../scripts/lib/defaults";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { remember, resultKey } from "./cache";
import { loadConvenerAttributes } from "../experiments/convener-attributes";
import { eq } from "drizzle-orm";
import { proposals, subjects } from "../schema";
import { inputVersion } from "./version";

/** Resamples and seed of an interleaving result: a page's B and the experiment's own seed. */
export const interleavingParameters = (experiment: Pick<ExperimentWithArms, "seed">) => ({
  B: PAGE_B,
  seed: experiment.seed,
});

/**
 * An interleaving experiment's result: by click and by adoption credit, the cumulative day-by-day win
 * rate, and the data-quality counts; `figures` is null before the first session. A multileaved
 * experiment has the preference matrix and ranking by each credit (`multileaving`) instead. `slices`
 * (two systems) or `multileavingSlices` (three or more) breaks the result down by subject and by each
 * imported convener attribute: the attributes are sensitive, so only analysts and admins read them, on
 * the page and in its snapshots.
 */
export async function interleavingResult(
  db: Db,
  experiment: ExperimentWithArms,
  run: HeavyRunner,
  settings: { B: number; seed: string } = interleavingParameters(experiment),
) {
  const parameters = { kind: "interleaving", experiment: experiment.key, ...settings };
  const version = await inputVersion(db);
  const computed = await remember(resultKey({ parameters, version }), async () => {
    const data = await loadInterleavingData(db, experiment);
    const { B, seed } = parameters;
    const multileaving =
      experiment.method === "multileaving" && data.sessions.length
        ? await run("multileavingFigures", { sessions: data.sessions, systems: data.systems, B, seed })
        : null;
    const figures =
      data.sessions.length && experiment.method !== "multileaving"
        ? await run("interleavingFigures", {
            sessions: data.sessions,
            control: data.control,
            challenger: data.challenger,
            B,
            seed,
          })
        : null;
    // The slices need the subject and attribute of every session: read once, for either kind.
    const sliced = figures || multileaving ? await sliceInputs(db, data.sessions) : null;
    const slices =
      sliced && figures
        ? await run("interleavingSlices", {
            ...sliced,
            control: data.control,
            challenger: data.challenger,
            B,
            seed,
          })
        : null;
    const multileavingSlices =
      sliced && multileaving
        ? await run("multileavingSlices", { ...sliced, systems: data.systems, B, seed })
        : null;
    return {
      control: data.control,
      challenger: data.challenger,
      method: experiment.method,
      systems: data.systems,
      multileaving,
      quality: data.quality,
      otherTeams: data.otherTeams,
      figures,
      slices,
      multileavingSlices,
    };
  });
  return { ...computed, parameters: settings };
}

/** A page's slice inputs: the sessions, each proposal's subject and the imported convener attributes. */
async function sliceInputs<S>(db: Db, sessions: S) {
  return { sessions, subjectOf: await proposalSubjects(db), attributes: await loadConvenerAttributes(db) };
}

/** Each proposal's subject key by the proposal's external id (the id events carry). */
async function proposalSubjects(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ proposal: proposals.externalId, subject: subjects.key })
    .from(proposals)
    .innerJoin(subjects, eq(subjects.id, proposals.subjectId));
  return new Map(rows.map((r) => [r.proposal, r.subject]));
}
