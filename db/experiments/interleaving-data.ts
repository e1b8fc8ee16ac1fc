import type { Db } from "../platform/client";
import { exportEvents } from "./events";
import type { ExperimentWithArms } from "./experiments";
import { and, eq, inArray } from "drizzle-orm";
import { CreditBuilder } from "../../scripts/interleaving/credit";
import { listMarginaliser, type ListRow } from "../../scripts/interleaving/marginalise";
import { candidates, listItems, proposals, rankedLists, systems as systemsTable } from "../schema";
import type { DatedCredit } from "../../scripts/interleaving/figures";
import type { ProposalCredit } from "../../scripts/interleaving/slices";

export interface InterleavingData {
  /** The control's and the challenger's system keys (the teams the impressions name). */
  control: string;
  challenger: string;
  /** Every arm's system key, the control first (three or more in a multileaved experiment). */
  systems: string[];
  /** Each session's credit, dated, with the proposal of its first event (its slice by subject). */
  sessions: (DatedCredit & ProposalCredit)[];
  /** What the credit rules set aside, counted. */
  quality: {
    events: number;
    duplicateEvents: number;
    sessionsWithoutImpression: number;
    eventsAboutUnshownCandidates: number;
    impressionsWithoutTeams: number;
    /** Probabilistic interleaving: sessions whose shown list the systems' stored lists do not explain. */
    sessionsWithoutLists?: number;
  };
  /** Team keys the impressions name that are neither system (events sent from outside with other keys). */
  otherTeams: string[];
}

/**
 * An interleaving experiment's sessions' credit from its stored events (the credit rules of
 * `assay interleave`, scripts/interleaving/credit.ts), each session dated by the UTC day of its first
 * event. Read page by page: the builder keeps only what each session's credit needs.
 */
export async function loadInterleavingData(
  db: Db,
  experiment: ExperimentWithArms,
): Promise<InterleavingData> {
  const control = experiment.arms.find((a) => a.isControl)!.systemKey;
  const challenger = experiment.arms.find((a) => !a.isControl)!.systemKey;
  const systems = [control, ...experiment.arms.filter((a) => !a.isControl).map((a) => a.systemKey)];
  const builder = new CreditBuilder();
  // A session's day: its first event's (the builder gives its proposal, a session being about one).
  const dayOf = new Map<string, string>();
  let impressionsWithoutTeams = 0;
  for await (const page of exportEvents(db, experiment)) {
    for (const e of page) {
      // An impression logged from outside without teams cannot be credited: counted, left out.
      if (e.type === "impression" && !e.teams) {
        impressionsWithoutTeams++;
        continue;
      }
      builder.add(e);
      // Events come in time order, so the first seen is the session's first.
      const key = `${e.unitId}\u0000${e.sessionId}`;
      if (!dayOf.has(key)) dayOf.set(key, e.at.slice(0, 10));
    }
  }
  // Probabilistic interleaving credits the marginalised outcome, which needs the two systems' lists.
  const totals = builder.build(
    experiment.method === "probabilistic"
      ? listMarginaliser(await defaultLists(db, [control, challenger]), [control, challenger])
      : undefined,
  );
  const sessions = totals.sessions.map((s) => ({ ...s, day: dayOf.get(`${s.unit}\u0000${s.session}`)! }));
  const { events, duplicateEvents, sessionsWithoutImpression, eventsAboutUnshownCandidates } = totals;
  return {
    control,
    challenger,
    systems,
    sessions,
    quality: {
      events: events + impressionsWithoutTeams,
      duplicateEvents,
      sessionsWithoutImpression,
      eventsAboutUnshownCandidates,
      impressionsWithoutTeams,
      ...(totals.sessionsWithoutLists !== undefined
        ? { sessionsWithoutLists: totals.sessionsWithoutLists }
        : {}),
    },
    otherTeams: totals.systems.filter((s) => !systems.includes(s)),
  };
}

/** The systems' default-variant ranked lists, every proposal, as the marginaliser reads them. */
async function defaultLists(db: Db, keys: string[]): Promise<ListRow[]> {
  return db
    .select({
      system: systemsTable.key,
      proposal: proposals.externalId,
      rank: listItems.rank,
      candidate: candidates.externalId,
    })
    .from(listItems)
    .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
    .innerJoin(systemsTable, eq(systemsTable.id, rankedLists.systemId))
    .innerJoin(proposals, eq(proposals.id, rankedLists.proposalId))
    .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
    .where(and(inArray(systemsTable.key, keys), eq(rankedLists.variant, "default")));
}
