import { isoTime } from "../metrics/online";
import type { OnlineEvent } from "../metrics/events";

/** One session's credit of each system, by clicks and by adoptions (DESIGN.md "Interleaving"). */
export interface SessionCredit {
  unit: string;
  session: string;
  /** Clicked shown candidates each system placed, by system key. */
  click: Record<string, number>;
  /** Adopted (at the end, after unadopts) shown candidates each system placed, by system key. */
  adopt: Record<string, number>;
}

export interface CreditTotals {
  sessions: SessionCredit[];
  /** Every system key the impressions' teams name, sorted. */
  systems: string[];
  events: number;
  duplicateEvents: number;
  sessionsWithoutImpression: number;
  eventsAboutUnshownCandidates: number;
}

type Kept = Pick<OnlineEvent, "eventId" | "type" | "candidateId" | "items" | "teams"> & { time: number };

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
  const seen = new Set<string>();
  // Keyed by unit and session id joined by NUL, which no valid id contains.
  const bySession = new Map<string, Kept[]>();
  let count = 0;
  for (const e of events) {
    count++;
    const before = seen.size;
    seen.add(e.eventId);
    if (seen.size === before) continue;
    const key = `${e.unitId}\u0000${e.sessionId}`;
    let list = bySession.get(key);
    if (!list) bySession.set(key, (list = []));
    list.push({ eventId: e.eventId, type: e.type, candidateId: e.candidateId, items: e.items, teams: e.teams, time: isoTime(e.at) });
  }
  const systems = new Set<string>();
  const sessions: SessionCredit[] = [];
  let sessionsWithoutImpression = 0;
  let eventsAboutUnshownCandidates = 0;
  for (const [key, list] of bySession) {
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
    if (impressions === 0) {
      sessionsWithoutImpression++;
      continue;
    }
    for (const e of list) if (e.type !== "impression" && !teamOf.has(e.candidateId!)) eventsAboutUnshownCandidates++;
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
    const cut = key.indexOf("\u0000");
    sessions.push({ unit: key.slice(0, cut), session: key.slice(cut + 1), click, adopt });
  }
  return { sessions, systems: [...systems].sort(), events: count, duplicateEvents: count - seen.size, sessionsWithoutImpression, eventsAboutUnshownCandidates };
}
