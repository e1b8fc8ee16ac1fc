import type { Sql } from "../platform/client";
import type { RawSession } from "../../scripts/clicks/log";

/** Rows fetched per round trip of the cursor: bounds the memory whatever the experiment's size. */
const CURSOR_ROWS = 2000;

/** One session's events, as the cursor returns them (already in (at, eventId) order). */
interface ClickEventRow {
  unit: string;
  at: Date | string;
  session_id: string;
  arm: string;
  type: "impression" | "click" | "adopt" | "unadopt";
  proposal_id: string;
  candidate_id: string | null;
  items: string[] | null;
}

export interface ClickExportCounts {
  /** Sessions written. */
  sessions: number;
  /** Sessions skipped because they have no impression (DESIGN.md: only sessions with one count). */
  withoutImpression: number;
}

/**
 * One session's result page for the click models, from its events in (at, eventId) order, or null
 * when the session showed nothing. The session is DESIGN.md's (experiment, unit, session id) and its
 * list is the first impression's, in displayed order and cut at `maxRank`: every rank then has one
 * candidate, as `summarizeSession` ranks candidates by the first impression that showed them. A
 * result is clicked when any click of the session names it, whenever it came, so clicks on candidates
 * never shown (or shown only below `maxRank` or in a later impression) are left out, as clicked(s) ∩
 * shown(s) leaves them out of CTR. Duplicated events never reach the table (event id primary key),
 * and a candidate clicked twice is one click either way.
 */
export function clickPage(
  events: readonly Pick<ClickEventRow, "type" | "proposal_id" | "candidate_id" | "items">[],
  id: string,
  maxRank: number,
): RawSession | null {
  const first = events.find((e) => e.type === "impression" && e.items && e.items.length > 0);
  if (!first) return null;
  const results = first.items!.slice(0, maxRank);
  const clicked = new Set<string>();
  for (const e of events) if (e.type === "click" && e.candidate_id !== null) clicked.add(e.candidate_id);
  return { id, query: first.proposal_id, results, clicks: results.map((d) => (clicked.has(d) ? 1 : 0)) };
}

/**
 * Hands each session of the experiment to `visit` as a click-model result page (`clickPage`), reading
 * the events through a server-side cursor in (unit, session id) order, the index's, so a large
 * experiment is streamed and only one unit's pages are held at a time. A unit's pages go out in the
 * order they started (ties by session id), so that file order is time order within each TCM task (the
 * unit's work on one proposal, `task` = `unit/proposal`). The session id written is `unit/session`,
 * since session ids need only be unique per unit. Takes the postgres.js client, not
 * drizzle, for its cursor. `visit` also gets the arm of the session's first impression and the unit (the
 * convener). Returns what was written and skipped.
 */
export async function forEachClickSession(
  sql: Sql,
  experimentId: number,
  maxRank: number,
  visit: (page: RawSession, arm: string, unit: string) => void | Promise<void>,
): Promise<ClickExportCounts> {
  const counts: ClickExportCounts = { sessions: 0, withoutImpression: 0 };
  let current: ClickEventRow[] = [];
  let unitPages: { page: RawSession; arm: string; unit: string }[] = [];
  const flushUnit = async () => {
    // Array.prototype.sort is stable: equal start times keep session id order.
    const pages = unitPages.sort((a, b) => a.page.time! - b.page.time!);
    unitPages = [];
    for (const { page, arm, unit } of pages) await visit(page, arm, unit);
  };
  const flush = async () => {
    if (!current.length) return;
    const { unit, session_id } = current[0];
    const page = clickPage(current, `${unit}/${session_id}`, maxRank);
    // TCM's task: the convener's work on one proposal, its list views ordered by when they started.
    if (page) Object.assign(page, { task: `${unit}/${page.query}`, time: new Date(current[0].at).getTime() });
    // The arm of the impression the page comes from (a session logged in two arms is rare and kept whole).
    const arm = current.find((e) => e.type === "impression" && e.items && e.items.length > 0)?.arm ?? "";
    current = [];
    if (!page) counts.withoutImpression++;
    else {
      counts.sessions++;
      unitPages.push({ page, arm, unit });
    }
  };
  // Event ids compared byte by byte (collate "C"), as the CLI and event_sessions order them.
  const cursor = sql<ClickEventRow[]>`
    select unit, at, session_id, arm, type, proposal_id, candidate_id, items from events
    where experiment_id = ${experimentId}
    order by unit, session_id, at, event_id collate "C"`.cursor(CURSOR_ROWS);
  for await (const rows of cursor) {
    for (const row of rows) {
      const last = current[current.length - 1];
      if (last && (last.unit !== row.unit || last.session_id !== row.session_id)) await flush();
      if (last && last.unit !== row.unit) await flushUnit();
      current.push(row);
    }
  }
  await flush();
  await flushUnit();
  return counts;
}

/** A session as one JSONL line of the format `assay clicks` reads (scripts/io/click-log-parse.ts). */
export function clickPageLine(page: RawSession): string {
  const { id: session, query, results, clicks, task, time } = page;
  const when = time === undefined ? {} : { time: new Date(time).toISOString() };
  return JSON.stringify({
    session,
    query,
    results,
    clicks,
    ...(task === undefined ? {} : { task }),
    ...when,
  });
}
