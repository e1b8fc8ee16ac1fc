import { sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";

/** The newest import, rating and event time: what a result saw, and how to tell data changed since. */
export async function dataWindow(db: DbOrTx) {
  const [row] = await db.execute<{
    latest_import: string | null;
    latest_rating: string | null;
    latest_event: string | null;
    lists: number;
    ratings: number;
    events: number;
    gold_items: number;
    latest_truth: string | null;
  }>(sql`select
    greatest((select max(updated_at) from proposals), (select max(updated_at) from candidates), (select max(imported_at) from ranked_lists))::text as latest_import,
    (select max(updated_at) from ratings)::text as latest_rating,
    (select max(received_at) from events)::text as latest_event,
    (select count(*)::int from list_items) as lists, (select count(*)::int from ratings) as ratings, (select count(*)::int from events) as events,
    (select count(*)::int from campaign_truth) as gold_items, (select max(set_at) from campaign_truth)::text as latest_truth`);
  return {
    latestImport: row.latest_import,
    latestRating: row.latest_rating,
    latestEvent: row.latest_event,
    listItems: row.lists,
    ratings: row.ratings,
    events: row.events,
    // Known grades (gold items) change a campaign's gold figures: attaching, changing or removing one moves the window.
    goldItems: row.gold_items,
    latestTruth: row.latest_truth,
  };
}

export type DataWindow = Awaited<ReturnType<typeof dataWindow>>;

/**
 * The tables a result reads besides those of the data window, small enough to fingerprint whole: the sum
 * of a 64-bit hash of every row, so an edit, a delete or a replacement of equal size changes it too.
 * (Users: only id and name, which labels show; a sign-in must not make every result stale.)
 */
const FINGERPRINTED = sql`select jsonb_build_object(
    'systems', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from systems t),
    'subjects', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from subjects t),
    'gold', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from gold_members t),
    'conflicts', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from conflicts t),
    'attributes', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from candidate_attributes t),
    'convenerAttributes', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from convener_attributes t),
    'lists', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from ranked_lists t),
    'campaigns', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaigns t),
    'campaignSystems', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_systems t),
    'campaignProposals', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_proposals t),
    'campaignExperts', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_experts t),
    'campaignItems', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_items t),
    'assignments', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_assignments t),
    'assignmentItems', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_assignment_items t),
    'adjudications', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from adjudications t),
    'truth', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from campaign_truth t),
    'experiments', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from experiments t),
    'arms', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from arms t),
    'experimentProposals', (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) from experiment_proposals t),
    'users', (select count(*) || ':' || coalesce(sum(hashtextextended(id || ':' || name, 0)), 0) from users),
    'proposals', (select count(*) from proposals),
    'candidates', (select count(*) from candidates),
    'exposures', (select count(*) from exposures)
  ) as version`;

/**
 * The version of everything a result is computed from: the data window and the fingerprints above. Two
 * equal versions mean equal inputs, so a result kept under one is the result of the other (db/results/
 * cache.ts). Large tables (list items, ratings, events, proposals, candidates) are appended to or replaced
 * with a newer time on their list, rating, event or row, so the window's counts and newest times stand
 * for them; the rest is hashed.
 */
export async function inputVersion(db: DbOrTx) {
  const [window, [row]] = await Promise.all([
    dataWindow(db),
    db.execute<{ version: Record<string, string> }>(FINGERPRINTED),
  ]);
  return { window, tables: row.version };
}

export type InputVersion = Awaited<ReturnType<typeof inputVersion>>;

/**
 * The kinds of result a snapshot freezes, and two parts computed apart and kept by what they read alone:
 * the offline report without its grades (which it keys by their content instead, db/results/offline.ts)
 * and its fairness section (lists, committees and attributes).
 */
type ResultKind = "offline" | "expert" | "online" | "clicks" | "offlineLists" | "fairness";
type WindowField = keyof DataWindow;

/** The catalog every kind reads: proposals, candidates, systems, subjects and the systems' lists. */
const CATALOG_WINDOW: WindowField[] = ["latestImport", "listItems"];
const CATALOG_TABLES = ["systems", "subjects", "lists", "proposals", "candidates"];

/**
 * What each kind of result reads, by data window field and fingerprinted table. A snapshot records and
 * checks only its kind's part, so a write it does not read (an event during a campaign's freeze) neither
 * fails the freeze nor makes an identical result a new snapshot.
 */
const READS: Record<ResultKind, { window: WindowField[]; tables: string[] }> = {
  // With a campaign's grades (its ground-truth section): the ratings, and the campaign rows they hang on.
  offline: {
    window: [...CATALOG_WINDOW, "ratings", "latestRating"],
    tables: [
      ...CATALOG_TABLES,
      "gold",
      "conflicts",
      "campaigns",
      "campaignItems",
      "assignments",
      "adjudications",
    ],
  },
  expert: {
    window: [...CATALOG_WINDOW, "ratings", "latestRating", "goldItems", "latestTruth"],
    tables: [
      ...CATALOG_TABLES,
      "conflicts",
      "users",
      "campaigns",
      "campaignSystems",
      "campaignProposals",
      "campaignExperts",
      "campaignItems",
      "assignments",
      // The pairs a scoped assignment covers: its "n of m", the monitor's scoped mark and the grades asked,
      // not given yet. A request may add a pair to an open assignment and write nothing else.
      "assignmentItems",
      "adjudications",
      "truth",
    ],
  },
  // The offline report's lists, committees and conflicts: the campaign grades it also reads are keyed by
  // the labels they make, so a grade that changes no label (a rationale, a grade in another campaign) is
  // no new report.
  offlineLists: { window: CATALOG_WINDOW, tables: [...CATALOG_TABLES, "gold", "conflicts"] },
  fairness: { window: CATALOG_WINDOW, tables: [...CATALOG_TABLES, "gold", "attributes"] },
  online: {
    window: [...CATALOG_WINDOW, "events", "latestEvent"],
    tables: [...CATALOG_TABLES, "experiments", "arms", "experimentProposals", "exposures"],
  },
  clicks: {
    window: [...CATALOG_WINDOW, "events", "latestEvent"],
    tables: [...CATALOG_TABLES, "experiments", "arms", "experimentProposals", "exposures"],
  },
};

const pick = <T extends object>(from: T, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, (from as Record<string, unknown>)[k] ?? null]));

/** The part of the data window a kind of result reads: what its snapshot records as its data window. */
export function windowOfKind(kind: ResultKind, window: DataWindow): Partial<DataWindow> {
  return pick(window, READS[kind].window) as Partial<DataWindow>;
}

/**
 * The version of only what a kind of result reads: its part of the data window and its tables'
 * fingerprints. Equal before and after a computation, the result was computed on one state of its inputs.
 */
export async function kindVersion(db: DbOrTx, kind: ResultKind) {
  return versionOfKind(kind, await inputVersion(db));
}

/** The part of an input version a kind of result reads (see `kindVersion`). */
export function versionOfKind(kind: ResultKind, { window, tables }: InputVersion) {
  return { window: windowOfKind(kind, window), tables: pick(tables, READS[kind].tables) };
}
