import { sql } from "drizzle-orm";
import type { Db } from "../platform/client";
import type { ExperimentWithArms } from "../experiments/experiments";
import { loadCandidateAttributes } from "../catalog/candidate-attributes";
import { DEFAULT_MIN_GROUP } from "../../scripts/fairness/report";
import { shareGuardrails, type Adoption } from "../../scripts/fairness/composition";
import { isCompositionGuardrail } from "../../scripts/inputs/guardrails";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { remember, resultKey } from "./cache";
import { inputVersion } from "./version";

/**
 * An A/B experiment's adopted candidates by convener and arm, by the report's rules (scripts/online):
 * units logged in two arms and sessions without an impression are left out; a candidate's adoption is
 * the session's final state (`adopted_ids`, after unadopts).
 */
async function abAdoptions(db: Db, experimentId: number): Promise<Adoption[]> {
  return db.execute<{ unit: string; arm: string; candidate: string }>(sql`
    with s as (select unit, arms, impressions, adopted_ids from event_sessions where experiment_id = ${experimentId}),
    units as (
      select s.unit, min(a.arm) as arm, count(distinct a.arm)::int as unit_arms from s, unnest(s.arms) as a(arm)
      group by s.unit
    )
    select s.unit, u.arm, c.id as candidate from s join units u using (unit), unnest(s.adopted_ids) as c(id)
    where u.unit_arms = 1 and s.impressions > 0 order by s.unit, c.id`);
}

/**
 * An interleaving experiment's adopted candidates by convener and team: each session's final adoptions
 * (the last adopt or unadopt of a candidate wins), credited to the system that placed the candidate in
 * the session's first impression naming it. Candidates never shown with a team are left out, as the
 * credit rules leave them out.
 */
async function teamAdoptions(db: Db, experimentId: number): Promise<Adoption[]> {
  return db.execute<{ unit: string; arm: string; candidate: string }>(sql`
    with last as (
      select distinct on (unit, session_id, candidate_id) unit, session_id, candidate_id, type
      from events where experiment_id = ${experimentId} and type in ('adopt', 'unadopt') and candidate_id is not null
      order by unit, session_id, candidate_id, at desc, event_id desc
    ), placed as (
      select distinct on (e.unit, e.session_id, x.item) e.unit, e.session_id, x.item, x.team
      from events e, unnest(e.items, e.teams) as x(item, team)
      where e.experiment_id = ${experimentId} and e.type = 'impression' and e.teams is not null
      order by e.unit, e.session_id, x.item, e.at, e.event_id
    )
    select l.unit, p.team as arm, l.candidate_id as candidate
    from last l join placed p on p.unit = l.unit and p.session_id = l.session_id and p.item = l.candidate_id
    where l.type = 'adopt' and p.team is not null order by l.unit, l.candidate_id`);
}

/**
 * The composition of adopted candidates by arm (A/B) or team (interleaving), issue 27: each group's share
 * among each arm's adoptions, the difference from the control with its bootstrap CI and test over
 * conveners, and the experiment's share guardrails read from it. Null when no candidate has a group
 * attribute. Kept under the settings and input version like the other results; the bootstrap runs where
 * `run` puts it (the app's worker pool).
 */
export async function compositionResult(
  db: Db,
  experiment: ExperimentWithArms,
  { B, seed }: { B: number; seed: string },
  run: HeavyRunner,
) {
  const parameters = {
    kind: "composition",
    experiment: experiment.key,
    B,
    seed,
    minGroup: DEFAULT_MIN_GROUP,
  };
  const version = await inputVersion(db);
  return remember(resultKey({ parameters, version }), async () => {
    const attributes = await loadCandidateAttributes(db);
    if (attributes.size === 0) return null;
    const interleaved = experiment.kind === "interleaving";
    const control = experiment.arms.find((a) => a.isControl)!;
    const arms = experiment.arms.map((a) => (interleaved ? a.systemKey : a.key));
    const adoptions = interleaved
      ? await teamAdoptions(db, experiment.id)
      : await abAdoptions(db, experiment.id);
    const composition = await run("adoptedComposition", {
      // Only the arms' own keys: an adoption credited to a team outside the experiment is left out.
      adoptions: adoptions.filter((a) => arms.includes(a.arm)),
      attributes,
      control: interleaved ? control.systemKey : control.key,
      arms,
      minGroup: DEFAULT_MIN_GROUP,
      bootstrap: { B, seed },
    });
    const bounds = experiment.guardrails.filter(isCompositionGuardrail);
    return {
      by: interleaved ? ("team" as const) : ("arm" as const),
      minGroup: DEFAULT_MIN_GROUP,
      ...composition,
      guardrails: shareGuardrails(composition, bounds),
    };
  });
}
