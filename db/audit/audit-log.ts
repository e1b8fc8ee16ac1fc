import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { keysetPage, type Cursor } from "../platform/keyset";
import { auditLog } from "../schema";
import type { AuditFilter } from "../../scripts/inputs/audit";
import { toCsv } from "../../scripts/lib/csv";

export const AUDIT_PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

/** The filters as SQL: `from` and `to` are whole UTC days, both included. */
function matching(filter: AuditFilter) {
  return and(
    filter.who ? eq(auditLog.actorLabel, filter.who) : undefined,
    filter.what ? eq(auditLog.action, filter.what) : undefined,
    filter.from ? gte(auditLog.at, new Date(`${filter.from}T00:00:00Z`)) : undefined,
    filter.to ? lt(auditLog.at, new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS)) : undefined,
  );
}

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  actor: auditLog.actorLabel,
  action: auditLog.action,
  target: auditLog.target,
  detail: auditLog.detail,
};

/**
 * One page of the entries matching the filters, newest first, with their count and the cursors of its
 * first and last entries (the next and previous pages read from them, fast at any depth). A page
 * number past the last shows the last, so a link kept from when the log was filtered differently still
 * shows entries.
 */
export async function listAuditEntries(db: DbOrTx, filter: AuditFilter & Cursor, size = AUDIT_PAGE_SIZE) {
  const where = matching(filter);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(where);
  const cursor = filter.after ?? filter.before;
  const page = cursor ? (filter.page ?? 1) : Math.min(filter.page ?? 1, Math.max(1, Math.ceil(total / size)));
  const plan = keysetPage(
    { dir: "desc", page, size, after: filter.after, before: filter.before, total },
    { column: auditLog.at, id: auditLog.id, keyed: true },
  );
  const read = await db
    .select({ ...columns, key: plan.key })
    .from(auditLog)
    .where(and(where, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const { rows, edges } = plan.finish(read);
  return { rows: rows.map(({ key: _key, ...row }) => row), total, page, size, cursors: edges };
}

/** Every entry matching the filters, newest first: what the CSV export holds. */
export async function auditEntriesForExport(db: DbOrTx, filter: AuditFilter) {
  return db
    .select(columns)
    .from(auditLog)
    .where(matching(filter))
    .orderBy(desc(auditLog.at), desc(auditLog.id));
}

/** The actors and actions the log holds, for the filters' choices. */
export async function auditFilterChoices(db: DbOrTx) {
  const [actors, actions] = await Promise.all([
    db.selectDistinct({ value: auditLog.actorLabel }).from(auditLog).orderBy(asc(auditLog.actorLabel)),
    db.selectDistinct({ value: auditLog.action }).from(auditLog).orderBy(asc(auditLog.action)),
  ]);
  return { actors: actors.map((a) => a.value), actions: actions.map((a) => a.value) };
}

export const auditCsvColumns = ["id", "at", "actor", "action", "target", "detail"] as const;

/** Entries as CSV (the one formula-safe writer): time in ISO 8601 UTC, detail as its JSON. */
export function auditCsv(entries: Awaited<ReturnType<typeof auditEntriesForExport>>): string {
  const rows = entries.map((e) => [
    e.id,
    e.at.toISOString(),
    e.actor,
    e.action,
    e.target,
    JSON.stringify(e.detail),
  ]);
  return toCsv(auditCsvColumns, rows) + "\r\n";
}
