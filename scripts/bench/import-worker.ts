import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDb } from "../../db/platform/client";
import { startEmbeddedPostgres } from "../../db/platform/embedded";
import { importFile } from "../../db/import";
import { applyMigrations } from "../../db/migrate";

// Import of a lists file of 100,000 items (2,000 proposals × 50 ranks) into a fresh embedded PostgreSQL.
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-bench-import-"));
await fs.chmod(dataDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir });
try {
  await applyMigrations(server.url);
  const { db, sql } = createDb(server.url);
  const proposals = Array.from({ length: 2000 }, (_, i) => `P${i}`);
  const candidates = Array.from({ length: 3000 }, (_, i) => `C${i}`);
  await importFile(
    db,
    "cli",
    "proposals",
    ["external_id,title", ...proposals.map((p) => `${p},Proposal ${p}`)].join("\n"),
    "csv",
  );
  await importFile(
    db,
    "cli",
    "candidates",
    ["external_id,name", ...candidates.map((c) => `${c},Candidate ${c}`)].join("\n"),
    "csv",
  );
  await importFile(db, "cli", "systems", "key,name\nbench,Bench system", "csv");
  const lines = ["system,proposal,rank,candidate,score"];
  proposals.forEach((p, i) => {
    for (let r = 1; r <= 50; r++)
      lines.push(`bench,${p},${r},C${(i * 7 + r * 13) % 3000},${(1 / r).toFixed(4)}`);
  });
  const text = lines.join("\n");
  let start = performance.now();
  const first = await importFile(db, "cli", "lists", text, "csv");
  const firstSeconds = (performance.now() - start) / 1000;
  start = performance.now();
  const again = await importFile(db, "cli", "lists", text, "csv");
  const againSeconds = (performance.now() - start) / 1000;
  if (!first.ok || !again.ok) throw new Error("the bench import failed");
  console.log(
    JSON.stringify({
      mode: "import",
      seconds: firstSeconds,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      detail: `${first.counts.added} items added in ${firstSeconds.toFixed(2)} s; re-import ${again.counts.unchanged} unchanged in ${againSeconds.toFixed(2)} s`,
    }),
  );
  await sql.end();
} finally {
  await server.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
