import { PassThrough, Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { hasSchema, tableContents } from "../../test/table-contents";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import type { Sql } from "../platform/client";
import { recordAudit } from "../audit/audit";
import { seedDemo } from "../../scripts/demo/seed";
import { createSnapshot } from "../snapshots/snapshots";
import { restoreBackup, writeBackup, type ArchiveHeader } from ".";
import { applyMigrationsUpTo, codeMigrations } from "./migrations";

async function backup(sql: Sql): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough().on("data", (c: Buffer) => chunks.push(c));
  await writeBackup(sql, sink);
  return Buffer.concat(chunks);
}

const restore = (sql: Sql, archive: Buffer) => restoreBackup(sql, Readable.from([archive]));
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => "restored",
    (error: Error) => error.message,
  );

/** The archive as text lines, and back: for archives tampered with on purpose. */
const linesOf = (archive: Buffer) => gunzipSync(archive).toString("utf8").split("\n");
const archiveOf = (lines: string[]) => gzipSync(Buffer.from(lines.join("\n"), "utf8"));
const headerOf = (archive: Buffer): ArchiveHeader => JSON.parse(linesOf(archive)[0]);

let source: TestDatabase;
let archive: Buffer;
const targets: TestDatabase[] = [];
const emptyTarget = async () => {
  const t = await createTestDatabase({ empty: true });
  targets.push(t);
  return t;
};

beforeAll(async () => {
  source = await createTestDatabase();
  await seedDemo(source.db);
  // Beyond the demo: a snapshot, audit entries, text that needs COPY's escapes, a deleted user (its id
  // must not be handed out again) and events whose sessions are still queued for the refresher.
  await createSnapshot(source.db, "cli", { kind: "offline", ks: [10], B: 50, seed: "backup" });
  await recordAudit(source.db, "cli", "backup.test", "tab\there, newline\nthere, backslash \\ and ☃", {
    nested: { quote: '"', empty: "" },
  });
  await source.sql`insert into users (email, name, roles, password_hash) values ('gone@assay.local', 'Gone', '{analyst}', 'x')`;
  await source.sql`delete from users where email = 'gone@assay.local'`;
  await source.sql`
    insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id, items)
    select 'queued-' || event_id, experiment_id, type, at, arm, 'queued-unit', 'queued-session', proposal_id, candidate_id, items
    from events order by event_id limit 3`;
  archive = await backup(source.sql);
}, 600_000);
afterAll(async () => {
  await Promise.all(targets.map((t) => t.drop()));
  await source?.drop();
});

// Whole demo restores: a loaded machine needs more than the default 30 s for some.
describe("backup and restore", { timeout: 180_000 }, () => {
  it("round-trips the demo data: every table, row by row, and the migration version", async () => {
    const header = headerOf(archive);
    expect(header.migrations.count).toBe(codeMigrations().length);
    expect(header.tables.map((t) => t.name)).toContain("drizzle.__drizzle_migrations");
    const events = header.tables.find((t) => t.name === "public.events")!;
    expect(events.rows).toBeGreaterThan(10_000);
    // Foreign-key order: every table after those it references.
    const at = (name: string) => header.tables.findIndex((t) => t.name === name);
    expect(at("public.experiments")).toBeLessThan(at("public.events"));
    expect(at("public.users")).toBeLessThan(at("public.snapshots"));

    const target = await emptyTarget();
    const summary = await restore(target.sql, archive);
    expect(summary.migrations).toBe(codeMigrations().length);
    const [expected, actual] = [await tableContents(source.sql), await tableContents(target.sql)];
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const [table, rows] of expected) expect({ table, rows: actual.get(table) }).toEqual({ table, rows });
    expect(expected.get("public.event_sessions_dirty")!.length).toBeGreaterThan(0);
    expect(expected.get("public.audit_log")!.some((r) => r.includes("☃"))).toBe(true);
  });

  it("leaves sequences past every archived id, triggers in force, and writes no audit entry of its own", async () => {
    const target = await emptyTarget();
    await restore(target.sql, archive);
    const [{ max }] = await source.sql<{ max: number }[]>`select max(id) as max from users`;
    const [created] = await target.sql<
      { id: number }[]
    >`insert into users (email, name, roles, password_hash) values ('new@assay.local', 'New', '{analyst}', 'x') returning id`;
    expect(created.id).toBe(max + 2); // max + 1 belonged to the deleted user
    const [{ count: auditBefore }] = await source.sql<
      { count: number }[]
    >`select count(*)::int as count from audit_log`;
    const [{ count: auditAfter }] = await target.sql<
      { count: number }[]
    >`select count(*)::int as count from audit_log`;
    expect(auditAfter).toBe(auditBefore);
    await target.sql`insert into audit_log (actor_label, action) values ('cli', 'after.restore')`;
    await target.sql`insert into snapshots (kind, parameters, data_window, result, sha256, created_by_label) values ('offline', '{}', '{}', '{}', 'x', 'test')`;
    await expect(target.sql`update snapshots set sha256 = 'y'`).rejects.toThrow(/snapshots are immutable/);
    await expect(target.sql`delete from audit_log`).rejects.toThrow(/append-only/);
    // The events trigger, set aside while rows went in as archived, queues new sessions again.
    await target.sql`
      insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id)
      select 'after-' || event_id, experiment_id, type, at, arm, 'after-unit', 'after-session', proposal_id from events limit 1`;
    const queued = await target.sql`select 1 from event_sessions_dirty where unit = 'after-unit'`;
    expect(queued.length).toBe(1);
  });

  it("refuses a target with rows, naming them, and changes nothing", async () => {
    const target = await createTestDatabase();
    targets.push(target);
    await target.sql`insert into subjects (key, name) values ('kept', 'Kept')`;
    expect(await refusal(restore(target.sql, archive))).toBe(
      "The target database is not empty (subjects have rows); restore only into an empty database. Nothing was restored.",
    );
    expect((await target.sql`select key from subjects`).map((r) => r.key)).toEqual(["kept"]);
  });

  it("restores into a target migrated to the archive's version but empty", async () => {
    const target = await createTestDatabase();
    targets.push(target);
    await restore(target.sql, archive);
    expect((await tableContents(target.sql)).get("public.users")).toEqual(
      (await tableContents(source.sql)).get("public.users"),
    );
  });

  it("restores an archive of an older schema at its version, and refuses it into a newer target", async () => {
    const old = await emptyTarget();
    const known = codeMigrations();
    await old.sql.begin(async (tx) => {
      await applyMigrationsUpTo(tx, 6);
      for (const m of known.slice(0, 6))
        await tx`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`;
    });
    await old.sql`insert into subjects (key, name) values ('old', 'Old')`;
    const oldArchive = await backup(old.sql);
    expect(headerOf(oldArchive).migrations.count).toBe(6);

    const newer = await createTestDatabase();
    targets.push(newer);
    expect(await refusal(restore(newer.sql, oldArchive))).toMatch(
      new RegExp(
        `^The target database is at migration ${known.length} and the archive at 6; restore into a new, empty database`,
      ),
    );
    const target = await emptyTarget();
    expect((await restore(target.sql, oldArchive)).migrations).toBe(6);
    expect(await tableContents(target.sql)).toEqual(await tableContents(old.sql));
  });

  it("refuses an archive of a newer schema, or of another history, and writes nothing", async () => {
    const target = await emptyTarget();
    const lines = linesOf(archive);
    const header = headerOf(archive);
    const tampered = (migrations: Partial<ArchiveHeader["migrations"]>) =>
      archiveOf([
        JSON.stringify({ ...header, migrations: { ...header.migrations, ...migrations } }),
        ...lines.slice(1),
      ]);
    expect(await refusal(restore(target.sql, tampered({ count: header.migrations.count + 1 })))).toBe(
      `The archive was made at migration ${header.migrations.count + 1}, newer than this Assay (${
        header.migrations.count
      } migrations); restore it with the Assay that made it or a newer one. Nothing was restored.`,
    );
    expect(await refusal(restore(target.sql, tampered({ lastHash: "0".repeat(64) })))).toMatch(
      /differs from this Assay's \(another schema history\)/,
    );
    expect(
      await refusal(
        restore(target.sql, archiveOf([JSON.stringify({ ...header, version: 2 }), ...lines.slice(1)])),
      ),
    ).toMatch(/backup format 2, newer than this Assay reads/);
    expect(await hasSchema(target.sql)).toBe(false);
  });

  it("refuses a truncated or damaged file with a sentence, leaving the database without even a schema", async () => {
    const target = await emptyTarget();
    const lines = linesOf(archive);
    const header = headerOf(archive);
    const before = header.tables.slice(
      0,
      header.tables.findIndex((t) => t.name === "public.events"),
    );
    const eventsStart = 1 + before.reduce((n, t) => n + t.rows + 1, 0);
    const eventsAt = eventsStart + 100; // a row in the middle of the events
    const eventsEnd = eventsStart + header.tables.find((t) => t.name === "public.events")!.rows; // the line after its last row
    const cases: [Buffer, RegExp][] = [
      [
        archive.subarray(0, Math.floor(archive.length * 0.9)),
        /^The archive is truncated \(its gzip data ends early\)\. Nothing was restored\.$/,
      ],
      [
        archiveOf(lines.slice(0, eventsAt)),
        /^The archive ends in the rows of public\.events, \d+ short of its \d+: the file is truncated\./,
      ],
      [
        archiveOf([...lines.slice(0, -2), ""]),
        /^The archive ends before its trailer: the file is truncated\./,
      ],
      [
        archiveOf([...lines.slice(0, eventsAt), "not\ta\trow", ...lines.slice(eventsAt + 1)]),
        /^The database refused the archive's rows of public\.events \(.+\)\. Nothing was restored\.$/,
      ],
      // The refused row is the table's last: the database answers after the COPY was ended, which must
      // still fail the restore rather than leave it waiting for a completion that never comes.
      [
        archiveOf([...lines.slice(0, eventsEnd - 1), "not\ta\trow", ...lines.slice(eventsEnd)]),
        /^The database refused the archive's rows of public\.events \(.+\)\. Nothing was restored\.$/,
      ],
      [archiveOf([...lines.slice(0, -1), "extra", ""]), /^The archive has data after its trailer/],
      [Buffer.from("just some text\n"), /^The file is not an Assay backup \(not gzip data\)\./],
      [gzipSync("{}\n"), /^The file is not an Assay backup: it does not start with an Assay backup header\./],
      [
        Buffer.concat([archive.subarray(0, 2000), Buffer.alloc(64, 0x55), archive.subarray(2064)]),
        /Nothing was restored\.$/,
      ],
    ];
    for (const [file, message] of cases) {
      expect(await refusal(restore(target.sql, file))).toMatch(message);
      expect(await hasSchema(target.sql)).toBe(false);
    }
    // The same target still takes the whole archive afterwards.
    await restore(target.sql, archive);
    expect((await tableContents(target.sql)).get("public.events")!.length).toBe(
      headerOf(archive).tables.find((t) => t.name === "public.events")!.rows,
    );
  });
});
