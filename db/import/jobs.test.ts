import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { cancelImportJob, importJob, importJobFinished, startImportJob } from "./jobs";

let t: TestDatabase;
let dir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-import-jobs-"));
});
afterAll(async () => {
  await t.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A candidates file of `n` rows, written to disk as the page's upload is. */
function candidatesFile(name: string, n: number) {
  const file = path.join(dir, name);
  const lines = ["external_id,name,affiliation"];
  for (let i = 0; i < n; i++) lines.push(`C${i},Candidate ${i},Lab ${i % 97}`);
  fs.writeFileSync(file, lines.join("\n"));
  return { file, bytes: fs.statSync(file).size };
}

const candidateCount = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int n from candidates`))[0].n;

function start(file: string, bytes: number) {
  return startImportJob({
    url: t.url,
    actor: "cli",
    entity: "candidates",
    format: "csv",
    filePath: file,
    fileName: path.basename(file),
    totalBytes: bytes,
    ownerId: 1,
  });
}

async function untilRowsRead(id: string) {
  for (;;) {
    const status = importJob(id, 1)!;
    if (status.rowsRead > 0 || status.state !== "running") return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("import jobs", () => {
  it("run off the caller's thread: the caller's queries are answered while the import is still running", async () => {
    const { file, bytes } = candidatesFile("big.csv", 30_000);
    const job = start(file, bytes);
    expect(job.state).toBe("running");
    // While the worker writes in its own (uncommitted) transaction, this thread's connection answers
    // and sees none of it.
    expect(await candidateCount()).toBe(0);
    expect(importJob(job.id, 1)!.state).toBe("running");
    // Another admin cannot read or cancel it.
    expect(importJob(job.id, 2)).toBeNull();
    expect(cancelImportJob(job.id, 2)).toBe(false);
    const done = await importJobFinished(job.id)!;
    expect(done).toMatchObject({ state: "done", rowsRead: 30_000, errors: 0, bytesRead: bytes });
    expect(done.result).toMatchObject({ ok: true, counts: { added: 30_000 } });
    expect(await candidateCount()).toBe(30_000);
    expect(fs.existsSync(file)).toBe(false); // the upload is deleted once imported
  }, 120_000);

  it("cancelled while it writes, leaves nothing written", async () => {
    await t.db.execute(sql`delete from candidates`);
    const { file, bytes } = candidatesFile("cancel.csv", 120_000);
    const job = start(file, bytes);
    const reading = await untilRowsRead(job.id);
    expect(reading.state).toBe("running");
    expect(cancelImportJob(job.id, 1)).toBe(true);
    const ended = await importJobFinished(job.id)!;
    expect(ended.state).toBe("cancelled");
    expect(ended.rowsRead).toBeLessThan(120_000);
    expect(await candidateCount()).toBe(0);
    const [audit] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int n from audit_log where action = 'data.import'`,
    );
    expect(audit.n).toBe(1); // the first test's import only
  }, 120_000);
});
