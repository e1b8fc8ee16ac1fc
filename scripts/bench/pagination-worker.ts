import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { asc, sql } from "drizzle-orm";
import { createDb } from "../../db/platform/client";
import { startEmbeddedPostgres } from "../../db/platform/embedded";
import { applyMigrations } from "../../db/migrate";
import { listCandidates, listRankedLists, type Page } from "../../db/catalog/catalog";
import { listAuditEntries } from "../../db/audit/audit-log";
import { candidates } from "../../db/schema";

/**
 * Deep pages of the candidates list with 2,000,000 candidates (CANDIDATES to change it): page 1,000
 * and page 20,000 of 25 as the list read them before (one query, OFFSET, a list count per skipped row),
 * by page number now (the offset over the sort column alone), and by cursor (keyset: the next page).
 * Then the audit log with 2,000,000 entries (AUDIT_ENTRIES), newest first: page 20,001 of 50 by number
 * and by cursor, through the same keyset helper; the last page of each (read backwards from the end) and
 * a page in the middle by number (the deepest a number can reach, an offset over the index alone).
 * Then 200,000 ranked lists (LISTS) sorted by system: page 4,000 by cursor and the last page.
 * Tables are vacuumed after loading, as autovacuum does after a bulk insert, so the index's visibility
 * map lets the offset walk the index only.
 */
const n = Number(process.env.CANDIDATES ?? 2_000_000);
const entries = Number(process.env.AUDIT_ENTRIES ?? 2_000_000);
const lists = Number(process.env.LISTS ?? 200_000);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-pages-"));
await fs.chmod(dataDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir });
try {
  await applyMigrations(server.url);
  const { db, sql: client } = createDb(server.url);
  await db.execute(sql`insert into candidates (external_id, name, affiliation)
    select 'C' || lpad(i::text, 8, '0'), 'Candidate ' || i, 'Lab ' || (i % 500) from generate_series(1, ${n}) i`);
  await db.execute(sql`vacuum (analyze) candidates`);
  const listed = sql<number>`(select count(*)::int from list_items li where li.candidate_id = "candidates"."id")`;
  const count = () => db.select({ total: sql<number>`count(*)::int` }).from(candidates);
  /** The list's queries before: one select with the list count, OFFSET to the page, and the total. */
  const before = async (page: number) => {
    await db
      .select({ id: candidates.id, externalId: candidates.externalId, listed })
      .from(candidates)
      .orderBy(asc(candidates.externalId), asc(candidates.id))
      .limit(25)
      .offset((page - 1) * 25);
    await count();
  };
  const time = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };
  const page: Page = { q: "", sort: "externalId", dir: "asc", page: 1, size: 25 };
  const figures: Record<string, number> = {};
  figures["the total alone"] = await time(count); // every way of paging shows it: "2,000,000 in all"
  for (const p of [1000, 20000]) {
    figures[`before p${p}`] = await time(() => before(p));
    figures[`number p${p}`] = await time(() => listCandidates(db, { ...page, page: p }));
    const here = await listCandidates(db, { ...page, page: p });
    figures[`cursor p${p + 1}`] = await time(() =>
      listCandidates(db, { ...page, page: p + 1, after: here.cursors.last! }),
    );
  }
  const lastPage = Math.ceil(n / 25);
  figures[`number p${Math.floor(lastPage / 2)} (middle)`] = await time(() =>
    listCandidates(db, { ...page, page: Math.floor(lastPage / 2) }),
  );
  figures[`number p${lastPage} (last)`] = await time(() => listCandidates(db, { ...page, page: lastPage }));
  // Entries a second apart, in bursts of 3 at the same instant (ties broken by id).
  await db.execute(sql`insert into audit_log (at, actor_label, action, target)
    select timestamptz '2026-01-01' + (i / 3) * interval '1 second', 'cli', 'bench.entry', 'e' || i
    from generate_series(1, ${entries}) i`);
  await db.execute(sql`vacuum (analyze) audit_log`);
  const auditDeep = Math.floor(entries / 100);
  figures[`audit number p${auditDeep}`] = await time(() => listAuditEntries(db, { page: auditDeep }));
  const edge = await listAuditEntries(db, { page: auditDeep });
  figures[`audit cursor p${auditDeep + 1}`] = await time(() =>
    listAuditEntries(db, { page: auditDeep + 1, after: edge.cursors.last! }),
  );
  figures[`audit number p${Math.ceil(entries / 50)} (last)`] = await time(() =>
    listAuditEntries(db, { page: Math.ceil(entries / 50) }),
  );
  await listsBySystem(db, figures, time);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(
    JSON.stringify({
      mode: "pagination",
      seconds: figures["cursor p20001"] / 1000,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail: `${n.toLocaleString("en")} candidates, ${entries.toLocaleString("en")} audit entries: ${Object.entries(
        figures,
      )
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(", ")}`,
    }),
  );
  await client.end();
} finally {
  await server.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}

/** Ranked lists (10 systems, one list per proposal each) sorted by system: deep by cursor, and the last. */
async function listsBySystem(
  db: ReturnType<typeof createDb>["db"],
  figures: Record<string, number>,
  time: (work: () => Promise<unknown>) => Promise<number>,
) {
  await db.execute(
    sql`insert into systems (key, name) select 'sys-' || s, 'System ' || s from generate_series(1, 10) s`,
  );
  await db.execute(sql`insert into proposals (external_id, title)
    select 'P' || lpad(i::text, 8, '0'), 'Proposal ' || i from generate_series(1, ${lists / 10}) i`);
  await db.execute(sql`insert into ranked_lists (system_id, proposal_id)
    select s.id, p.id from systems s cross join proposals p`);
  await db.execute(sql`vacuum (analyze) ranked_lists`);
  const page: Page = { q: "", sort: "system", dir: "asc", page: 1, size: 25 };
  const deep = Math.floor(lists / 50);
  const here = await listRankedLists(db, { ...page, page: deep });
  figures[`lists by system cursor p${deep + 1}`] = await time(() =>
    listRankedLists(db, { ...page, page: deep + 1, after: here.cursors.last! }),
  );
  figures[`lists by system number p${Math.ceil(lists / 25)} (last)`] = await time(() =>
    listRankedLists(db, { ...page, page: Math.ceil(lists / 25) }),
  );
}
