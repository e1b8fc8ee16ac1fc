import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../../test/database";
import { tableContents } from "../../../test/table-contents";
import { seedDemo } from "../../demo/seed";
import { runAssay } from "../../../test/run-cli";

/** The real CLI against `url`, as a user runs it with DATABASE_URL set. */
const assay = (url: string, ...args: string[]) => runAssay(args, { DATABASE_URL: url });

let source: TestDatabase;
let target: TestDatabase;
let folder: string;
beforeAll(async () => {
  [source, target] = await Promise.all([createTestDatabase(), createTestDatabase({ empty: true })]);
  await seedDemo(source.db, { proposals: 12, candidates: 200, seed: "backup-cli" });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "assay-backup-"));
}, 300_000);
afterAll(async () => {
  await Promise.all([source?.drop(), target?.drop()]);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe("assay backup and assay restore", { timeout: 180_000 }, () => {
  it("back up one database and restore it into an empty one, every table equal", async () => {
    const file = path.join(folder, "assay.backup.gz");
    const backedUp = await assay(source.url, "backup", file);
    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toMatch(
      /^Backed up \d+ rows of \d+ tables \(schema at migration \d+\) to .+assay\.backup\.gz, [\d.]+ MB, in [\d.]+ s\.\n$/,
    );
    expect(fs.statSync(file).mode & 0o077).toBe(0); // password and session hashes: the owner's eyes only
    expect(fs.readdirSync(folder)).toEqual(["assay.backup.gz"]);

    const restored = await assay(target.url, "restore", file);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored \d+ rows of \d+ tables from .+ \(backed up .+, schema at migration \d+\), in [\d.]+ s\.\n$/,
    );
    expect(await tableContents(target.sql)).toEqual(await tableContents(source.sql));

    const again = await assay(target.url, "restore", file);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^assay: The target database is not empty \(.+ have rows\); restore only into an empty database\. Nothing was restored\.\n$/,
    );
  });

  it("says what is wrong with a missing file, a folder that does not exist, or a file that is not a backup", async () => {
    expect((await assay(target.url, "restore", path.join(folder, "none.gz"))).stderr).toBe(
      `assay: Cannot read the backup file ${path.join(folder, "none.gz")}: no such file.\n`,
    );
    const nowhere = path.join(folder, "no-such-folder", "a.gz");
    expect((await assay(source.url, "backup", nowhere)).stderr).toBe(
      `assay: Cannot write the backup file ${nowhere}: no such folder.\n`,
    );
    const text = path.join(folder, "notes.txt");
    fs.writeFileSync(text, "hello\n");
    const refused = await assay(target.url, "restore", text);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "assay: The file is not an Assay backup (not gzip data). Nothing was restored.\n",
    );
  });
});
