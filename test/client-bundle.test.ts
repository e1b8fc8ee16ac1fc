import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { getTableColumns, getTableName, isTable } from "drizzle-orm";
import * as schema from "../db/schema";
import { importSchemas } from "../scripts/inputs/import-rows";

/**
 * Nothing of the server reaches a browser: the client build holds no drizzle, no table definition and no
 * SQL. Routes reach the database only through `*.server.ts` modules, which Remix leaves out of client
 * bundles; this builds the client as `npm start` does and reads every file it would send.
 */
const root = path.resolve(__dirname, "..");
type Table = Parameters<typeof getTableName>[0];
const tables = (Object.values(schema) as unknown[]).filter((value): value is Table => isTable(value));
const tableNames = tables.map((table) => getTableName(table));
// snake_case column names (password_hash, key_hash, created_at, …): a table definition cannot ship without
// them. The import format's own columns (external_id, …) are left out: the import page names them on purpose.
const importColumns = new Set(Object.values(importSchemas).flatMap((rows) => Object.keys(rows.shape)));
const columnNames = [
  ...new Set(tables.flatMap((table) => Object.values(getTableColumns(table)).map((c) => c.name))),
].filter((name) => name.includes("_") && !importColumns.has(name));

function clientFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? clientFiles(file) : file.endsWith(".js") ? [file] : [];
  });
}

describe("the client bundle", () => {
  let files: { name: string; code: string }[];
  // Its own folder: other tests run servers on build/ meanwhile. A production build, as `npm start` sends.
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "assay-client-bundle-"));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      cwd: root,
      stdio: "pipe",
      env: { ...process.env, NODE_ENV: "production", ASSAY_BUILD_DIR: out },
    });
    files = clientFiles(path.join(out, "public/build")).map((file) => ({
      name: path.relative(out, file),
      code: fs.readFileSync(file, "utf8"),
    }));
  }, 120_000);

  it("is built and knows the tables to look for", () => {
    expect(files.length).toBeGreaterThan(20);
    expect(tableNames).toEqual(expect.arrayContaining(["users", "ranked_lists", "events", "snapshots"]));
  });

  it("holds no drizzle and no table definition", () => {
    const leaks = files.flatMap(({ name, code }) => {
      const found = ["drizzle", "pgTable", "pg-core", "pgEnum"].filter((word) => code.includes(word));
      // A drizzle table is a call such as pgTable("ranked_lists", { … }) that names its columns.
      const defined = tableNames.filter((table) =>
        new RegExp(`\\(\\s*["'\`]${table}["'\`]\\s*,\\s*\\{`).test(code),
      );
      const columns = columnNames.filter((column) => new RegExp(`["'\`]${column}["'\`]`).test(code));
      const all = [...found, ...defined, ...columns];
      return all.length ? [`${name}: ${all.join(", ")}`] : [];
    });
    expect(leaks).toEqual([]);
  });

  it("holds no SQL", () => {
    const sql = new RegExp(
      `\\b(from|into|join|update)\\s+"?(${tableNames.join("|")})"?\\s+(where|set|values|on|as|order|group|limit)\\b`,
      "i",
    );
    expect(files.filter(({ code }) => sql.test(code)).map(({ name }) => name)).toEqual([]);
  });
});
