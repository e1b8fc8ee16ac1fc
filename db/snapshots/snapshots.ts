import { and, desc, eq, sql } from "drizzle-orm";
import { toCsv } from "../../scripts/lib/csv";
import type { Db, DbOrTx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import { snapshots, type Snapshot } from "../schema";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { canonicalJson, sha256 } from "../../scripts/lib/canonical";
import { resultRows } from "../../scripts/results/rows";
import { compareFigures, compareParameters } from "../../scripts/results/compare";
import { kindVersion, versionOfKind, type DataWindow } from "../results/version";
import { ResultError, resultParameters, type ResultRequest } from "../results/parameters";
import { computeResult } from "../results/compute";

// Snapshots' errors are the result service's (a result that cannot be frozen as asked).
export { ResultError as SnapshotError };

/** The snapshot of this kind with exactly these parameters on exactly this data window, if one was frozen. */
async function findSnapshot(
  db: DbOrTx,
  kind: Snapshot["kind"],
  parameters: object,
  window: Partial<DataWindow>,
) {
  const [row] = await db
    .select()
    .from(snapshots)
    .where(
      and(
        eq(snapshots.kind, kind),
        sql`${snapshots.parameters} = ${JSON.stringify(parameters)}::jsonb`,
        sql`${snapshots.dataWindow} = ${JSON.stringify(window)}::jsonb`,
      ),
    )
    .orderBy(snapshots.id)
    .limit(1);
  return row;
}

/**
 * Freezes a result: computed now, stored with its parameters, data window and SHA-256; never changed.
 * Idempotent: the same parameters on the same data window return the snapshot already frozen
 * (`created: false`), found before computing and again under an advisory lock before inserting, so
 * two concurrent freezes (a double-click) make one row and one audit entry. The snapshot names its
 * creator (the user's name, or "cli"); the row and its audit entry are written together, after the
 * computation, so a long bootstrap holds no transaction open.
 */
export async function createSnapshot(
  db: Db,
  actor: AuditActor,
  request: ResultRequest,
  run: HeavyRunner = runInProcess,
) {
  const parameters = await resultParameters(db, request);
  const now = await kindVersion(db, parameters.kind);
  const existing = await findSnapshot(db, parameters.kind, parameters, now.window);
  if (existing) return { ...existing, created: false };
  const { result, window } = await computeOnOneState(db, request, run);
  const canonical = JSON.parse(canonicalJson(result));
  const digest = sha256(canonicalJson(result));
  const by =
    actor === "cli"
      ? { createdBy: null, createdByLabel: "cli" }
      : { createdBy: actor.id, createdByLabel: actor.name };
  return db.transaction(async (tx) => {
    // Snapshots are immutable (no upsert, no delete): serialise freezes of the same parameters instead.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`assay.snapshot:${sha256(canonicalJson(parameters))}`}))`,
    );
    const frozen = await findSnapshot(tx, parameters.kind, parameters, window);
    if (frozen) return { ...frozen, created: false };
    const [row] = await tx
      .insert(snapshots)
      .values({
        kind: request.kind,
        parameters,
        dataWindow: window,
        result: canonical,
        sha256: digest,
        ...by,
      })
      .returning();
    await recordAudit(tx, actor, "snapshot.create", `snapshot ${row.id}`, {
      kind: row.kind,
      parameters,
      sha256: digest,
    });
    return { ...row, created: true };
  });
}

/**
 * A result and the data window of the one state of its inputs it was computed on. The offline report
 * reads its inputs and their version in one repeatable-read transaction, so it is recorded with the
 * version it read: writes meanwhile (an expert grading, an import) never fail it, and a recomputation on
 * that data gives the same figures. The other kinds read in several steps: their version is read before
 * and after, and if what they read changed meanwhile the result may mix two states, so the freeze is
 * refused rather than mislabelled (a write they do not read, such as an event during a campaign's freeze,
 * does not count).
 */
async function computeOnOneState(db: Db, request: ResultRequest, run: HeavyRunner) {
  const kind = request.kind;
  const before = await kindVersion(db, kind);
  const computed = await computeResult(db, request, run);
  if ("version" in computed && computed.version)
    return { result: computed.result, window: versionOfKind(kind, computed.version).window };
  if (canonicalJson(await kindVersion(db, kind)) !== canonicalJson(before)) {
    throw new ResultError(
      "The data this result reads changed while the snapshot was computed (an import or new data arrived); nothing was frozen. Freeze again.",
      409,
    );
  }
  return { result: computed.result, window: before.window };
}

/** What a snapshot is of, for pickers: the experiment's key, the campaign's name, or "offline report". */
const subject = sql<string>`case ${snapshots.kind} when 'offline' then 'offline report'
  when 'expert' then coalesce(${snapshots.result}->'campaign'->>'name', 'campaign ' || (${snapshots.parameters}->>'campaign'))
  else ${snapshots.parameters}->>'experiment' end`;

/** Every snapshot, newest first, with its subject (never its result, which can be large). */
export async function listSnapshots(db: DbOrTx) {
  return db
    .select({
      id: snapshots.id,
      kind: snapshots.kind,
      subject,
      parameters: snapshots.parameters,
      sha256: snapshots.sha256,
      createdByLabel: snapshots.createdByLabel,
      createdAt: snapshots.createdAt,
    })
    .from(snapshots)
    .orderBy(desc(snapshots.createdAt), desc(snapshots.id));
}

/** A snapshot as a picker shows it: kind, subject, when (UTC, to the minute) and who froze it. */
export function snapshotLabel(s: {
  id: number;
  kind: string;
  subject: string;
  createdAt: Date;
  createdByLabel: string;
}) {
  return `#${s.id} · ${s.kind} · ${s.subject} · ${s.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${s.createdByLabel}`;
}

export async function getSnapshot(db: DbOrTx, id: number): Promise<Snapshot> {
  const [row] = await db.select().from(snapshots).where(eq(snapshots.id, id));
  if (!row) throw new ResultError(`There is no snapshot ${id}.`, 404);
  return row;
}

/** The interchange document of DESIGN.md: schema assay.snapshot/v1. */
export function snapshotDocument(s: Snapshot) {
  return {
    schema: "assay.snapshot/v1",
    id: s.id,
    kind: s.kind,
    parameters: s.parameters,
    dataWindow: s.dataWindow,
    createdBy: s.createdByLabel,
    createdAt: s.createdAt.toISOString(),
    sha256: s.sha256,
    result: s.result,
  };
}

export type SnapshotRow = [string, string, string, number | null, number | null, number | null];
export const snapshotColumns = ["system_or_arm", "group", "measure", "value", "ci_lower", "ci_upper"];

/** The result flattened: one row per (system or arm, group, measure), with value and interval. */
export function snapshotRows(s: Pick<Snapshot, "kind" | "result">): SnapshotRow[] {
  return resultRows(s.kind, s.result).map((r) => [r.system, r.group, r.measure, r.value, r.lower, r.upper]);
}

/** The same rows as CSV. */
export function snapshotCsv(s: Snapshot): string {
  return toCsv(snapshotColumns, snapshotRows(s)) + "\r\n";
}

type Comparable = Pick<Snapshot, "kind" | "result" | "parameters" | "dataWindow" | "sha256">;

/**
 * Two snapshots compared: their parameters (settings, data window, result hash) and their figures
 * (values and interval bounds), matched by (group, system or arm, measure). Only two of one kind
 * compare: an offline report and an experiment share no figure, so every row would "differ".
 */
export function compareSnapshots(a: Comparable, b: Comparable) {
  if (a.kind !== b.kind) {
    const article = (kind: string) => (/^[aeiou]/.test(kind) ? "an" : "a");
    throw new ResultError(
      `${article(a.kind).replace("a", "A")} ${a.kind} snapshot cannot be compared with ${article(b.kind)} ${b.kind} one; pick two of the same kind.`,
    );
  }
  return {
    parameters: compareParameters(a, b),
    figures: compareFigures(resultRows(a.kind, a.result), resultRows(b.kind, b.result)),
  };
}
