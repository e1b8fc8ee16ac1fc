import { isoTime } from "../online/report";
import type { OnlineEvent } from "../online/events";
import { marginalisedOutcome } from "./probabilistic";

/**
 * Probabilistic interleaving's credit needs the two systems' lists: for a session's proposal and shown
 * list, the systems [A, B] and P(position drawn by B | the list) per position (`positionPosteriors`),
 * or null when the lists are not known.
 */
export type Marginaliser = (
  proposal: string,
  items: readonly string[],
) => { systems: readonly [string, string]; posteriors: number[] } | null;

/** One session's credit of each system, by clicks and by adoptions (DESIGN.md "Interleaving"). */
export interface SessionCredit {
  unit: string;
  session: string;
  /** Clicked shown candidates each system placed, by system key. */
  click: Record<string, number>;
  /** Adopted (at the end, after unadopts) shown candidates each system placed, by system key. */
  adopt: Record<string, number>;
}

/** A session's credit with the proposal of its earliest event (its slice by subject). */
export type ProposalCredit = SessionCredit & { proposal: string };

export interface CreditTotals {
  sessions: ProposalCredit[];
  /** The experiments the events name (one, in a well-formed file). */
  experiments: string[];
  /** Every system key the impressions' teams name, sorted. */
  systems: string[];
  events: number;
  duplicateEvents: number;
  sessionsWithoutImpression: number;
  eventsAboutUnshownCandidates: number;
  /** Probabilistic interleaving: sessions whose shown list the systems' lists do not explain (left out). */
  sessionsWithoutLists?: number;
}

type Kept = Pick<OnlineEvent, "eventId" | "type" | "candidateId" | "items" | "teams" | "proposalId"> & {
  time: number;
};

interface Bucket {
  unit: string;
  session: string;
  events: Kept[];
  next: Bucket | null;
}

/**
 * Per-session credit from an interleaved experiment's events, with the online metrics' set rules
 * (DESIGN.md "Online metrics"): events de-duplicated by eventId and taken in (at, eventId) order
 * within their session (a session is a unit's session id); shown(s) = candidates of the session's
 * impressions, each credited to the team that placed it in the first impression showing it; clicked(s)
 * and adopted(s) (final state after unadopts) count only shown candidates. Sessions without an
 * impression and events about candidates never shown are counted, not credited. Every impression
 * must carry `teams` (the caller checks, naming the line).
 */
export function sessionCredits(events: Iterable<OnlineEvent>): CreditTotals {
  const builder = new CreditBuilder();
  for (const e of events) builder.add(e);
  return builder.build();
}

/**
 * The same, taking events one at a time as a file is read: each event is kept only as far as its
 * session's credit needs it (a million whole parsed events would all live until the last is read).
 */
export class CreditBuilder {
  private readonly seen = new Set<string>();
  // Sessions by session id, then unit: a chain, for the rare id several units use (as `assay online`).
  private readonly bySession = new Map<string, Bucket>();
  private readonly buckets: Bucket[] = [];
  private readonly experiments = new Set<string>();
  private count = 0;

  add(e: OnlineEvent): void {
    this.count++;
    this.experiments.add(e.experiment);
    const before = this.seen.size;
    this.seen.add(e.eventId);
    if (this.seen.size === before) return;
    // A finish (the convener done with the proposal) names no candidate: it credits no team.
    if (e.type === "finish") return;
    const head = this.bySession.get(e.sessionId) ?? null;
    let b = head;
    while (b !== null && b.unit !== e.unitId) b = b.next;
    if (!b) {
      b = { unit: e.unitId, session: e.sessionId, events: [], next: head };
      this.bySession.set(e.sessionId, b);
      this.buckets.push(b);
    }
    b.events.push({
      eventId: e.eventId,
      type: e.type,
      candidateId: e.candidateId,
      items: e.items,
      teams: e.teams,
      proposalId: e.proposalId,
      time: isoTime(e.at),
    });
  }

  /**
   * With `marginalise` (probabilistic interleaving), a session's credit is not the teams' but the
   * marginalised outcome over its first impression: P(A wins) and P(B wins) given the list and the
   * clicked (adopted) positions, so the system with the larger one wins the session.
   */
  build(marginalise?: Marginaliser): CreditTotals {
    const systems = new Set<string>();
    let sessionsWithoutLists = 0;
    const sessions: ProposalCredit[] = [];
    let sessionsWithoutImpression = 0;
    let eventsAboutUnshownCandidates = 0;
    for (const { unit, session, events: list } of this.buckets) {
      list.sort((a, b) => a.time - b.time || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
      // The team of each shown candidate, from the first impression that showed it.
      const teamOf = new Map<string, string>();
      const clicked = new Set<string>();
      const adoptState = new Map<string, boolean>();
      let impressions = 0;
      for (const e of list) {
        if (e.type === "impression") {
          impressions++;
          const { items, teams } = e;
          for (let i = 0; i < items!.length; i++) {
            systems.add(teams![i]);
            if (!teamOf.has(items![i])) teamOf.set(items![i], teams![i]);
          }
        } else if (e.type === "click") clicked.add(e.candidateId!);
        else adoptState.set(e.candidateId!, e.type === "adopt");
      }
      // A session is about one proposal; its earliest event names it.
      const proposal = list[0].proposalId;
      if (impressions === 0) {
        sessionsWithoutImpression++;
        continue;
      }
      for (const e of list)
        if (e.type !== "impression" && !teamOf.has(e.candidateId!)) eventsAboutUnshownCandidates++;
      if (marginalise) {
        const credit = marginalisedCredit(list, clicked, adoptState, marginalise);
        if (credit) sessions.push({ unit, session, proposal, ...credit });
        else sessionsWithoutLists++;
        continue;
      }
      const click: Record<string, number> = {};
      const adopt: Record<string, number> = {};
      for (const c of clicked) {
        const team = teamOf.get(c);
        if (team !== undefined) click[team] = (click[team] ?? 0) + 1;
      }
      for (const [c, on] of adoptState) {
        const team = on ? teamOf.get(c) : undefined;
        if (team !== undefined) adopt[team] = (adopt[team] ?? 0) + 1;
      }
      sessions.push({ unit, session, proposal, click, adopt });
    }
    const { count, seen } = this;
    return {
      sessions,
      experiments: [...this.experiments].sort(),
      systems: [...systems].sort(),
      events: count,
      duplicateEvents: count - seen.size,
      sessionsWithoutImpression,
      eventsAboutUnshownCandidates,
      ...(marginalise ? { sessionsWithoutLists } : {}),
    };
  }
}

/** A session's marginalised click and adoption credit over its first impression, or null without lists. */
function marginalisedCredit(
  list: readonly Kept[],
  clicked: ReadonlySet<string>,
  adoptState: ReadonlyMap<string, boolean>,
  marginalise: Marginaliser,
): Pick<SessionCredit, "click" | "adopt"> | null {
  const first = list.find((e) => e.type === "impression")!;
  const known = marginalise(first.proposalId, first.items!);
  if (!known) return null;
  const [a, b] = known.systems;
  const positions = (keep: (c: string) => boolean) => first.items!.flatMap((c, r) => (keep(c) ? [r] : []));
  const credit = (chosen: number[]) => {
    const o = marginalisedOutcome(known.posteriors, chosen);
    const out: Record<string, number> = {};
    if (o.a > 0) out[a] = o.a;
    if (o.b > 0) out[b] = o.b;
    return out;
  };
  return {
    click: credit(positions((c) => clicked.has(c))),
    adopt: credit(positions((c) => adoptState.get(c) === true)),
  };
}

/** Totals of disjoint sets of units (each unit's events all in one part) combined. */
export function mergeCreditTotals(parts: readonly CreditTotals[]): CreditTotals {
  const sum = (f: (p: CreditTotals) => number) => parts.reduce((n, p) => n + f(p), 0);
  const union = (f: (p: CreditTotals) => string[]) => [...new Set(parts.flatMap(f))].sort();
  return {
    sessions: parts.flatMap((p) => p.sessions),
    experiments: union((p) => p.experiments),
    systems: union((p) => p.systems),
    events: sum((p) => p.events),
    duplicateEvents: sum((p) => p.duplicateEvents),
    sessionsWithoutImpression: sum((p) => p.sessionsWithoutImpression),
    eventsAboutUnshownCandidates: sum((p) => p.eventsAboutUnshownCandidates),
    ...(parts.some((p) => p.sessionsWithoutLists !== undefined)
      ? { sessionsWithoutLists: sum((p) => p.sessionsWithoutLists ?? 0) }
      : {}),
  };
}
