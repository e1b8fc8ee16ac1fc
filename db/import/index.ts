import { eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  candidates,
  conflicts,
  goldMembers,
  listItems,
  proposals,
  rankedLists,
  subjects,
  systems,
} from "../schema";
import { type FileFormat, type RowError, type SourceRecord } from "./parse";
import { ImportFileError, readRecords } from "./read";
import { assignProposals, convenerIdsByEmail } from "../experiments/convener";
import {
  acceptedColumns,
  importSchemas,
  requiredColumns,
  type ImportEntity,
} from "../../scripts/inputs/import-rows";
import { truthWriter } from "./truth";
import { insertedFlag, upsertCounted } from "./upsert";
import { attributesWriter } from "./attributes";
import { convenerAttributesWriter } from "./convener-attributes";

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  removed?: number;
  listsAdded?: number;
}

export type ImportResult =
  | { ok: true; entity: ImportEntity; rows: number; counts: ImportCounts }
  | { ok: false; entity: ImportEntity; rows: number; errors: RowError[]; totalErrors: number };

/** A writer's progress within a phase (list items written of all). */
export type Progress = (phase: string, done: number, total: number) => void;

/** How far an import has read: rows so far, problems so far, and bytes of the file consumed. */
export interface ImportProgress {
  rowsRead: number;
  errors: number;
  bytesRead: number;
}

export interface ImportOptions {
  fileName?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Aborting ends the import at the next batch, and its transaction rolls back: nothing is written. */
  signal?: AbortSignal;
}

const BATCH = 5000;
/** Problems kept to show (the first by line); beyond them only their number is kept, so a file of bad rows stays cheap. */
export const KEPT_ERRORS = 1000;

/**
 * Imports one file of one entity: every row is validated (shape, then references and duplicates
 * against the database and the file itself); any bad row means nothing is written. A good file is
 * written in one transaction with its audit entry (entity, file name, counts), and importing the same
 * file again changes nothing but adds an entry saying so. The page and the CLI hand over the file's
 * bytes, so that a file that is not UTF-8 is refused rather than stored garbled.
 */
export async function importFile(
  db: Db,
  actor: AuditActor,
  entity: ImportEntity,
  content: string | Uint8Array,
  format: FileFormat,
  options: ImportOptions = {},
): Promise<ImportResult> {
  return importStream(db, actor, entity, [content], format, options);
}

/** Thrown out of the import's transaction to roll it back when the file has a bad row. */
class NothingWritten extends Error {
  constructor(readonly result: ImportResult) {
    super("nothing written");
  }
}

/**
 * `importFile` over a stream of chunks, in memory bounded by a batch (plus, per row, the keys that
 * find repeats, and for lists the items until their lists are replaced): rows are read, validated and
 * written batch by batch inside one transaction, which rolls back if any row anywhere is bad, or if
 * `signal` aborts.
 */
export async function importStream(
  db: Db,
  actor: AuditActor,
  entity: ImportEntity,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  format: FileFormat,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const source = Symbol.asyncIterator in chunks ? chunks : toAsync(chunks);
  try {
    return await db.transaction(async (tx) => {
      const outcome = await readAndWrite(tx, entity, source, format, options);
      if (!outcome.ok) throw new NothingWritten(outcome);
      await recordAudit(tx, actor, "data.import", entity, {
        file: options.fileName ?? "",
        format,
        rows: outcome.rows,
        ...outcome.counts,
      });
      return outcome;
    });
  } catch (error) {
    if (error instanceof NothingWritten) return error.result;
    if (error instanceof ImportFileError)
      return { ok: false, entity, rows: 0, errors: [error.error], totalErrors: 1 };
    throw error;
  }
}

async function* toAsync<T>(items: Iterable<T>) {
  yield* items;
}

/** The first problems by line, and how many there were in all. */
class ErrorList {
  kept: RowError[] = [];
  total = 0;
  add(errors: RowError[]) {
    this.total += errors.length;
    if (this.kept.length < KEPT_ERRORS)
      this.kept.push(...errors.sort((a, b) => a.line - b.line).slice(0, KEPT_ERRORS - this.kept.length));
  }
}

async function readAndWrite(
  tx: Tx,
  entity: ImportEntity,
  source: AsyncIterable<Uint8Array | string>,
  format: FileFormat,
  { onProgress = () => {}, signal }: ImportOptions,
): Promise<ImportResult> {
  const writer = writers[entity] as Writer<unknown>;
  const state = new ImportState();
  const errors = new ErrorList();
  const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0 };
  const failed = (rows: number): ImportResult => ({
    ok: false,
    entity,
    rows,
    errors: errors.kept,
    totalErrors: errors.total,
  });
  let rows = 0;
  let bytesBefore = 0;
  let columns: string[] | null = null;
  for await (const block of readRecords(source, format)) {
    signal?.throwIfAborted();
    if (format === "csv" && columns === null && block.columns) {
      columns = block.columns;
      const problem = columnProblem(entity, columns);
      if (problem) {
        errors.add([problem, ...block.errors]);
        return failed(block.records.length);
      }
    }
    if (format === "jsonl") columns = block.columns;
    rows += block.records.length;
    const found = [...block.errors];
    for (let i = 0; i < block.records.length; i += BATCH) {
      const batchErrors: RowError[] = [];
      const valid = validateRows(entity, block.records.slice(i, i + BATCH), batchErrors);
      // The transaction reads what it wrote from earlier batches; a Tx answers every query a Db does.
      const prepared = await writer.resolve(tx as unknown as Db, valid as never[], batchErrors, state);
      found.push(...batchErrors);
      if (errors.total + found.length === 0) addCounts(counts, await writer.write(tx, prepared, state));
      signal?.throwIfAborted();
      // Per batch, not per block: a 1 MB block of short rows is 18 batches, too long to show nothing.
      const share = Math.min(1, (i + BATCH) / block.records.length);
      onProgress({
        rowsRead: rows - block.records.length + Math.min(i + BATCH, block.records.length),
        errors: errors.total + found.length,
        bytesRead: Math.round(bytesBefore + (block.bytesRead - bytesBefore) * share),
      });
    }
    errors.add(found);
    bytesBefore = block.bytesRead;
    onProgress({ rowsRead: rows, errors: errors.total, bytesRead: block.bytesRead });
  }
  const problem = rows === 0 ? columnProblem(entity, columns ?? []) : null;
  if (problem) {
    errors.kept.unshift(problem); // the file's problem comes before its lines'
    errors.total++;
  }
  if (rows === 0 && errors.total === 0) errors.add([{ line: 1, message: "the file has no rows" }]);
  if (errors.total > 0) return failed(rows);
  if (writer.finish) addCounts(counts, await writer.finish(tx, state));
  return { ok: true, entity, rows, counts };
}

/** Missing required columns, or (CSV) columns the entity does not have, as the file's first problem. */
function columnProblem(entity: ImportEntity, columns: string[]): RowError | null {
  const missing = requiredColumns[entity].filter((c) => !columns.includes(c));
  const known = acceptedColumns(entity);
  const unknown = columns.filter((c) => !known.includes(c));
  const parts = [
    missing.length ? `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}` : "",
    unknown.length
      ? `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (expected ${known.join(", ")})`
      : "",
  ].filter(Boolean);
  return parts.length ? { line: 1, message: parts.join("; ") } : null;
}

function addCounts(total: ImportCounts, more: ImportCounts) {
  total.added += more.added;
  total.updated += more.updated;
  total.unchanged += more.unchanged;
  if (more.removed !== undefined) total.removed = (total.removed ?? 0) + more.removed;
  if (more.listsAdded !== undefined) total.listsAdded = (total.listsAdded ?? 0) + more.listsAdded;
}

/** What a writer keeps from batch to batch of one import: the first line of each key, for repeats. */
export class ImportState {
  private maps = new Map<string, Map<string, number>>();
  lists = new Map<string, PreparedList>();
  /** The protocol each system's lists answer, from its first row that names one. */
  protocols = new Map<string, string>();
  seen(name: string): Map<string, number> {
    let map = this.maps.get(name);
    if (!map) this.maps.set(name, (map = new Map()));
    return map;
  }
}

export type Row<E extends ImportEntity> = z.infer<(typeof importSchemas)[E]> & { line: number };

function validateRows<E extends ImportEntity>(
  entity: E,
  records: SourceRecord[],
  errors: RowError[],
): Row<E>[] {
  const schema = importSchemas[entity];
  const rows: Row<E>[] = [];
  for (const record of records) {
    const result = schema.safeParse(record.values);
    if (result.success)
      rows.push({ ...(result.data as z.infer<(typeof importSchemas)[E]>), line: record.line });
    else errors.push({ line: record.line, message: result.error.issues.map((i) => i.message).join("; ") });
  }
  return rows;
}

/**
 * One entity's import, called batch by batch: `resolve` checks a batch's rows against the database and
 * the rows before them (`state`), `write` writes a batch while the file has no problem yet, and
 * `finish`, if any, writes what has to wait for the whole file.
 */
export interface Writer<P> {
  resolve(db: Db, rows: never[], errors: RowError[], state: ImportState): Promise<P>;
  write(tx: Tx, prepared: P, state: ImportState): Promise<ImportCounts>;
  finish?(tx: Tx, state: ImportState): Promise<ImportCounts>;
}

async function idMap(db: Db, table: typeof proposals | typeof candidates, ids: string[]) {
  const map = new Map<string, number>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += BATCH) {
    const chunk = unique.slice(i, i + BATCH);
    const found = await db
      .select({ id: table.id, externalId: table.externalId })
      .from(table)
      .where(inArray(table.externalId, chunk));
    for (const r of found) map.set(r.externalId, r.id);
  }
  return map;
}

export function flagDuplicates<T extends { line: number }>(
  rows: T[],
  keyOf: (row: T) => string,
  describe: (row: T) => string,
  errors: RowError[],
  first = new Map<string, number>(),
) {
  for (const row of rows) {
    const key = keyOf(row);
    const seen = first.get(key);
    if (seen !== undefined) errors.push({ line: row.line, message: `${describe(row)} repeats line ${seen}` });
    else first.set(key, row.line);
  }
}

const subjectsWriter: Writer<Row<"subjects">[]> = {
  async resolve(_db, rows: Row<"subjects">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => r.key,
      (r) => `subject ${r.key}`,
      errors,
      state.seen("d1"),
    );
    return rows;
  },
  write: (tx, rows) =>
    upsertCounted(
      tx,
      subjects,
      rows.map(({ key, name }) => ({ key, name })),
      subjects.key,
      { name: subjects.name },
    ),
};

type ProposalPrepared = { rows: Row<"proposals">[]; subjectIds: Map<string, number> };
const proposalsWriter: Writer<ProposalPrepared> = {
  async resolve(db, rows: Row<"proposals">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => r.external_id,
      (r) => `proposal ${r.external_id}`,
      errors,
      state.seen("d2"),
    );
    const all = await db.select({ id: subjects.id, key: subjects.key }).from(subjects);
    const subjectIds = new Map(all.map((s) => [s.key, s.id]));
    for (const r of rows) {
      if (r.subject && !subjectIds.has(r.subject))
        errors.push({ line: r.line, message: `unknown subject ${r.subject} (import subjects first)` });
    }
    return { rows, subjectIds };
  },
  write: (tx, { rows, subjectIds }) =>
    upsertCounted(
      tx,
      proposals,
      rows.map((r) => ({
        externalId: r.external_id,
        title: r.title,
        abstract: r.abstract,
        keywords: r.keywords,
        subjectId: r.subject ? subjectIds.get(r.subject)! : null,
        date: r.date,
      })),
      proposals.externalId,
      {
        title: proposals.title,
        abstract: proposals.abstract,
        keywords: proposals.keywords,
        subjectId: proposals.subjectId,
        date: proposals.date,
      },
      { updatedAt: sql`now()` },
      BATCH,
    ),
};

const candidatesWriter: Writer<Row<"candidates">[]> = {
  async resolve(_db, rows: Row<"candidates">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => r.external_id,
      (r) => `candidate ${r.external_id}`,
      errors,
      state.seen("d3"),
    );
    return rows;
  },
  write: (tx, rows) =>
    upsertCounted(
      tx,
      candidates,
      rows.map((r) => ({
        externalId: r.external_id,
        name: r.name,
        affiliation: r.affiliation,
        email: r.email || null,
        keywords: r.keywords,
        summary: r.summary,
        profileDate: r.profile_date,
      })),
      candidates.externalId,
      {
        name: candidates.name,
        affiliation: candidates.affiliation,
        email: candidates.email,
        keywords: candidates.keywords,
        summary: candidates.summary,
        profileDate: candidates.profileDate,
      },
      { updatedAt: sql`now()` },
      BATCH,
    ),
};

const systemsWriter: Writer<Row<"systems">[]> = {
  async resolve(_db, rows: Row<"systems">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => r.key,
      (r) => `system ${r.key}`,
      errors,
      state.seen("d4"),
    );
    return rows;
  },
  write: (tx, rows) =>
    upsertCounted(
      tx,
      systems,
      rows.map((r) => ({
        key: r.key,
        name: r.name || r.key,
        version: r.version,
        buildSeconds: r.build_seconds,
        memoryMb: r.memory_mb,
      })),
      systems.key,
      {
        name: systems.name,
        version: systems.version,
        buildSeconds: systems.buildSeconds,
        memoryMb: systems.memoryMb,
      },
    ),
};

interface PreparedList {
  systemId: number;
  proposalId: number;
  variant: string;
  /** The `protocol` cell of the list's rows (`given-2:7`), set on the system; "" leaves it as it is. */
  protocol: string;
  /** The `latency_ms` of the list's rows that give one (they must agree); null: none given. */
  latencyMs: number | null;
  items: { rank: number; candidateId: number; score: number | null }[];
}

/**
 * A file of list items replaces, list by list, the lists it names; lists it does not name are kept. A
 * list's items may be anywhere in the file, so they are gathered (as numbers) and written at the end.
 */
const listsWriter: Writer<void> = {
  async resolve(db, rows: Row<"lists">[], errors, state) {
    const listKey = (r: Row<"lists">) => `${r.system}\u0000${r.proposal}\u0000${r.variant}`;
    const where = (r: Row<"lists">) => `list ${r.system} / ${r.proposal} / ${r.variant}`;
    flagDuplicates(
      rows,
      (r) => `${listKey(r)}\u0000${r.rank}`,
      (r) => `rank ${r.rank} in ${where(r)}`,
      errors,
      state.seen("d5"),
    );
    flagDuplicates(
      rows,
      (r) => `${listKey(r)}\u0000${r.candidate}`,
      (r) => `candidate ${r.candidate} in ${where(r)}`,
      errors,
      state.seen("d6"),
    );
    const systemIds = new Map(
      (await db.select({ id: systems.id, key: systems.key }).from(systems)).map((s) => [s.key, s.id]),
    );
    const proposalIds = await idMap(
      db,
      proposals,
      rows.map((r) => r.proposal),
    );
    const candidateIds = await idMap(
      db,
      candidates,
      rows.map((r) => r.candidate),
    );
    const lists = state.lists;
    const protocolOf = state.protocols;
    for (const r of rows) {
      // One protocol per system: its lists answer one split, or the report would mix them.
      const protocol = protocolOf.get(r.system);
      if (r.protocol && protocol === undefined) protocolOf.set(r.system, r.protocol);
      const problems = [
        systemIds.has(r.system) ? "" : `unknown system ${r.system} (import systems first)`,
        r.protocol && protocol !== undefined && protocol !== r.protocol
          ? `system ${r.system} has protocol ${protocol} on an earlier row and ${r.protocol} here (one protocol per system)`
          : "",
        proposalIds.has(r.proposal) ? "" : `unknown proposal ${r.proposal}`,
        candidateIds.has(r.candidate) ? "" : `unknown candidate ${r.candidate}`,
      ].filter(Boolean);
      if (problems.length > 0) {
        errors.push({ line: r.line, message: problems.join("; ") });
        continue;
      }
      const key = listKey(r);
      let list = lists.get(key);
      // A list's latency may be on any of its rows (a batch may hold only some of them); two must agree.
      if (list && r.latency_ms !== null && list.latencyMs !== null && list.latencyMs !== r.latency_ms) {
        errors.push({
          line: r.line,
          message: `latency_ms ${r.latency_ms} differs from ${list.latencyMs} on an earlier row of ${where(r)} (one latency per list)`,
        });
        continue;
      }
      if (list && r.latency_ms !== null) list.latencyMs = r.latency_ms;
      if (!list) {
        list = {
          systemId: systemIds.get(r.system)!,
          proposalId: proposalIds.get(r.proposal)!,
          variant: r.variant,
          protocol: r.protocol,
          latencyMs: r.latency_ms,
          items: [],
        };
        lists.set(key, list);
      }
      list.items.push({ rank: r.rank, candidateId: candidateIds.get(r.candidate)!, score: r.score });
    }
  },
  async write() {
    return { added: 0, updated: 0, unchanged: 0 };
  },
  async finish(tx, state) {
    const lists = [...state.lists.values()];
    const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0, removed: 0, listsAdded: 0 };
    for (let i = 0; i < lists.length; i += 500) {
      const chunk = lists.slice(i, i + 500);
      const created = await tx
        .insert(rankedLists)
        .values(
          chunk.map((l) => ({
            systemId: l.systemId,
            proposalId: l.proposalId,
            variant: l.variant,
            latencyMs: l.latencyMs,
          })),
        )
        .onConflictDoUpdate({
          target: [rankedLists.systemId, rankedLists.proposalId, rankedLists.variant],
          // A list named again is replaced whole, its prediction time too.
          set: { variant: sql`excluded.variant`, latencyMs: sql`excluded.latency_ms` },
        })
        .returning({
          id: rankedLists.id,
          systemId: rankedLists.systemId,
          proposalId: rankedLists.proposalId,
          variant: rankedLists.variant,
          inserted: insertedFlag,
        });
      const idOf = new Map(created.map((c) => [`${c.systemId}:${c.proposalId}:${c.variant}`, c]));
      const ids = created.map((c) => c.id);
      const existing = await tx
        .select({
          listId: listItems.listId,
          rank: listItems.rank,
          candidateId: listItems.candidateId,
          score: listItems.score,
        })
        .from(listItems)
        .where(inArray(listItems.listId, ids));
      const before = new Map<number, Map<number, { candidateId: number; score: number | null }>>();
      for (const e of existing) {
        if (!before.has(e.listId)) before.set(e.listId, new Map());
        before.get(e.listId)!.set(e.rank, e);
      }
      const replace: number[] = [];
      const inserts: (typeof listItems.$inferInsert)[] = [];
      for (const list of chunk) {
        const row = idOf.get(`${list.systemId}:${list.proposalId}:${list.variant}`)!;
        if (row.inserted) counts.listsAdded!++;
        const old = before.get(row.id) ?? new Map();
        let changed = old.size !== list.items.length;
        for (const item of list.items) {
          const prev = old.get(item.rank);
          if (!prev) counts.added++;
          else if (prev.candidateId !== item.candidateId || prev.score !== item.score) counts.updated++;
          else {
            counts.unchanged++;
            continue;
          }
          changed = true;
        }
        const newRanks = new Set(list.items.map((it) => it.rank));
        for (const rank of old.keys()) if (!newRanks.has(rank)) counts.removed!++;
        if (changed) {
          replace.push(row.id);
          for (const item of list.items) inserts.push({ listId: row.id, ...item });
        }
      }
      if (replace.length > 0) await tx.delete(listItems).where(inArray(listItems.listId, replace));
      for (let j = 0; j < inserts.length; j += BATCH) {
        await tx.insert(listItems).values(inserts.slice(j, j + BATCH));
      }
    }
    const protocols = new Map(lists.filter((l) => l.protocol).map((l) => [l.systemId, l.protocol]));
    for (const [id, protocol] of protocols)
      await tx.update(systems).set({ protocol }).where(eq(systems.id, id));
    return counts;
  },
};

const goldWriter: Writer<{ proposalId: number; candidateId: number }[]> = {
  async resolve(db, rows: Row<"gold">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => `${r.proposal}\u0000${r.candidate}`,
      (r) => `gold member ${r.candidate} of ${r.proposal}`,
      errors,
      state.seen("d7"),
    );
    const proposalIds = await idMap(
      db,
      proposals,
      rows.map((r) => r.proposal),
    );
    const candidateIds = await idMap(
      db,
      candidates,
      rows.map((r) => r.candidate),
    );
    const out: { proposalId: number; candidateId: number }[] = [];
    for (const r of rows) {
      const problems = [
        proposalIds.has(r.proposal) ? "" : `unknown proposal ${r.proposal}`,
        candidateIds.has(r.candidate) ? "" : `unknown candidate ${r.candidate}`,
      ].filter(Boolean);
      if (problems.length > 0) errors.push({ line: r.line, message: problems.join("; ") });
      else
        out.push({ proposalId: proposalIds.get(r.proposal)!, candidateId: candidateIds.get(r.candidate)! });
    }
    return out;
  },
  async write(tx, rows) {
    let added = 0;
    for (let i = 0; i < rows.length; i += BATCH) {
      const inserted = await tx
        .insert(goldMembers)
        .values(rows.slice(i, i + BATCH))
        .onConflictDoNothing()
        .returning({ p: goldMembers.proposalId });
      added += inserted.length;
    }
    return { added, updated: 0, unchanged: rows.length - added };
  },
};

/** Which convener picks a committee for which proposal; conveners are users with the convener role. */
const convenersWriter: Writer<{ userId: number; proposalId: number }[]> = {
  async resolve(db, rows: Row<"conveners">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => `${r.convener.toLowerCase()}\u0000${r.proposal}`,
      (r) => `${r.convener} for ${r.proposal}`,
      errors,
      state.seen("d8"),
    );
    const userIds = await convenerIdsByEmail(db, [...new Set(rows.map((r) => r.convener))]);
    const proposalIds = await idMap(
      db,
      proposals,
      rows.map((r) => r.proposal),
    );
    const out: { userId: number; proposalId: number }[] = [];
    for (const r of rows) {
      const problems = [
        userIds.has(r.convener.toLowerCase()) ? "" : `no convener has the email ${r.convener}`,
        proposalIds.has(r.proposal) ? "" : `unknown proposal ${r.proposal}`,
      ].filter(Boolean);
      if (problems.length) errors.push({ line: r.line, message: problems.join("; ") });
      else
        out.push({
          userId: userIds.get(r.convener.toLowerCase())!,
          proposalId: proposalIds.get(r.proposal)!,
        });
    }
    return out;
  },
  async write(tx, rows) {
    const added = await assignProposals(tx, rows);
    return { added, updated: 0, unchanged: rows.length - added };
  },
};

/**
 * Declared conflicts of interest (proposal, candidate, reason). A file adds pairs and updates their
 * reasons; pairs it does not name are kept (as gold members are).
 */
const conflictsWriter: Writer<{ proposalId: number; candidateId: number; reason: string }[]> = {
  async resolve(db, rows: Row<"conflicts">[], errors, state) {
    flagDuplicates(
      rows,
      (r) => `${r.proposal}\u0000${r.candidate}`,
      (r) => `conflict of ${r.candidate} with ${r.proposal}`,
      errors,
      state.seen("d9"),
    );
    const proposalIds = await idMap(
      db,
      proposals,
      rows.map((r) => r.proposal),
    );
    const candidateIds = await idMap(
      db,
      candidates,
      rows.map((r) => r.candidate),
    );
    const out: { proposalId: number; candidateId: number; reason: string }[] = [];
    for (const r of rows) {
      const problems = [
        proposalIds.has(r.proposal) ? "" : `unknown proposal ${r.proposal}`,
        candidateIds.has(r.candidate) ? "" : `unknown candidate ${r.candidate}`,
      ].filter(Boolean);
      if (problems.length > 0) errors.push({ line: r.line, message: problems.join("; ") });
      else
        out.push({
          proposalId: proposalIds.get(r.proposal)!,
          candidateId: candidateIds.get(r.candidate)!,
          reason: r.reason,
        });
    }
    return out;
  },
  write: (tx, rows) =>
    upsertCounted(
      tx,
      conflicts,
      rows,
      [conflicts.proposalId, conflicts.candidateId],
      { reason: conflicts.reason },
      {},
      BATCH,
    ),
};

const writers: Record<ImportEntity, Writer<never>> = {
  subjects: subjectsWriter as Writer<never>,
  proposals: proposalsWriter as Writer<never>,
  candidates: candidatesWriter as Writer<never>,
  systems: systemsWriter as Writer<never>,
  lists: listsWriter as Writer<never>,
  gold: goldWriter as Writer<never>,
  conveners: convenersWriter as Writer<never>,
  conflicts: conflictsWriter as Writer<never>,
  truth: truthWriter as Writer<never>,
  attributes: attributesWriter as Writer<never>,
  "convener-attributes": convenerAttributesWriter as Writer<never>,
};
