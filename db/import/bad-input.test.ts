import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../accounts/users";
import { importFile } from "./index";
import type { FileFormat } from "./parse";
import type { ImportEntity } from "../../scripts/inputs/import-rows";
import { createSessionCookie } from "../../test/session-cookie";

/**
 * Files an import must refuse with a sentence naming the line, writing nothing: not UTF-8, a repeated
 * column, a NUL in a cell, a field over its length limit; in CSV and in JSONL, through importFile, the
 * admin page and `assay import`.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  expect((await importFile(t.db, "cli", "subjects", "key,name\nml,Machine learning\n", "csv")).ok).toBe(true);
});
afterAll(() => t.drop());

async function counts() {
  const [row] = await t.db.execute<
    Record<string, number>
  >(sql`select (select count(*)::int from subjects) subjects,
    (select count(*)::int from proposals) proposals, (select count(*)::int from candidates) candidates`);
  return row;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Latin-1 (ISO 8859-1): one byte per character, as old spreadsheets save "Jürgen". */
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const jsonl = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const x = (n: number) => "x".repeat(n);

type Case = [
  name: string,
  entity: ImportEntity,
  format: FileFormat,
  content: string | Uint8Array,
  line: number,
  message: RegExp,
];
const refused: Case[] = [
  [
    "a Latin-1 CSV",
    "candidates",
    "csv",
    latin1("external_id,name\nC-1,Ann\nC-2,J\u00fcrgen\n"),
    3,
    /not valid UTF-8/,
  ],
  [
    "a Windows-1252 JSONL",
    "candidates",
    "jsonl",
    latin1('{"external_id":"C-1","name":"Ann"}\n{"external_id":"C-2","name":"\u0096 dash"}\n'),
    2,
    /not valid UTF-8/,
  ],
  [
    "a CSV with a BOM and a Latin-1 line",
    "subjects",
    "csv",
    Uint8Array.from([0xef, 0xbb, 0xbf, ...latin1("key,name\nde,D\u00e9\n")]),
    2,
    /not valid UTF-8/,
  ],
  [
    "a repeated CSV header",
    "candidates",
    "csv",
    "external_id,name,name\nC-1,Ann,Bob\n",
    1,
    /the header repeats the column name$/,
  ],
  [
    "two repeated CSV headers",
    "proposals",
    "csv",
    "external_id,title,title,external_id\nP-1,A,B,P-2\n",
    1,
    /repeats the columns title, external_id$/,
  ],
  [
    "a repeated JSONL key",
    "candidates",
    "jsonl",
    '{"external_id":"C-1","name":"Ann","name":"Bob"}\n',
    1,
    /repeats the key name$/,
  ],
  [
    "a NUL in a CSV cell",
    "candidates",
    "csv",
    "external_id,name\nC-1,Ann\nC-2,An\u0000n\n",
    3,
    /NUL character in name/,
  ],
  [
    "a NUL in a JSONL value",
    "candidates",
    "jsonl",
    jsonl({ external_id: "C-1", name: "Ann" }, { external_id: "C-2", name: "An\u0000n" }),
    2,
    /NUL character in name/,
  ],
  [
    "a NUL in a JSONL keyword",
    "proposals",
    "jsonl",
    jsonl({ external_id: "P-1", title: "T", keywords: ["a", "b\u0000"] }),
    1,
    /NUL character in keywords/,
  ],
  [
    "a CSV name of 201 characters",
    "candidates",
    "csv",
    `external_id,name\nC-1,${x(201)}\n`,
    2,
    /^name is longer than 200 characters$/,
  ],
  [
    "a JSONL subject name of 201 characters",
    "subjects",
    "jsonl",
    jsonl({ key: "k", name: x(201) }),
    1,
    /^name is longer than 200 characters$/,
  ],
  [
    "an id of 201 characters",
    "proposals",
    "csv",
    `external_id,title\n${x(201)},T\n`,
    2,
    /^external_id is longer than 200 characters$/,
  ],
  [
    "a title of 2,001 characters",
    "proposals",
    "jsonl",
    jsonl({ external_id: "P-1", title: x(2001) }),
    1,
    /^title is longer than 2,000 characters$/,
  ],
  [
    "keywords of 2,001 characters",
    "proposals",
    "csv",
    `external_id,title,keywords\nP-1,T,${x(1000)};${x(1001)}\n`,
    2,
    /^keywords is longer than 2,000 characters$/,
  ],
  [
    "an abstract of 20,001 characters",
    "proposals",
    "csv",
    `external_id,title,abstract\nP-1,T,${x(20_001)}\n`,
    2,
    /^abstract is longer than 20,000 characters$/,
  ],
  [
    "a 5 MB summary",
    "candidates",
    "jsonl",
    jsonl(
      { external_id: "C-1", name: "Ann" },
      { external_id: "C-2", name: "Bo", summary: x(5 * 1024 * 1024) },
    ),
    2,
    /^summary is longer than 20,000 characters$/,
  ],
  [
    "an affiliation of 201 characters",
    "candidates",
    "csv",
    `external_id,name,affiliation\nC-1,Ann,${x(201)}\n`,
    2,
    /^affiliation is longer than 200 characters$/,
  ],
  [
    "an email of 201 characters",
    "candidates",
    "jsonl",
    jsonl({ external_id: "C-1", name: "Ann", email: `${x(190)}@example.org` }),
    1,
    /^email is longer than 200 characters$/,
  ],
];

describe("an import refuses, naming the line, and writes nothing:", () => {
  it.each(refused)("%s", async (_name, entity, format, content, line, message) => {
    const before = await counts();
    const result = await importFile(t.db, "cli", entity, content, format);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      result.errors.find((e) => message.test(e.message)),
      JSON.stringify(result.errors).slice(0, 300),
    ).toMatchObject({ line });
    expect(await counts()).toEqual(before);
  });
});

describe("a good file still imports", () => {
  it("in CSV, as UTF-8 bytes with a BOM, with fields exactly at their limits", async () => {
    const file = utf8(
      `\ufeffexternal_id,name,summary,keywords\nC-1,J\u00fcrgen M\u00fcller,${x(20_000)},${x(2000)}\nC-2,${x(200)},,a;b\n`,
    );
    expect(await importFile(t.db, "cli", "candidates", file, "csv")).toMatchObject({
      ok: true,
      counts: { added: 2 },
    });
    const [row] = await t.db.execute<{ name: string }>(
      sql`select name from candidates where external_id = 'C-1'`,
    );
    expect(row.name).toBe("J\u00fcrgen M\u00fcller");
  });

  it("in JSONL, with nested objects whose keys repeat the top level's", async () => {
    const file = utf8(
      jsonl({ external_id: "P-1", title: "\u00c9tude", keywords: ["a"], subject: "ml" }) +
        '{"external_id":"P-2","title":"{\\"title\\":1}","keywords":[]}\n',
    );
    expect(await importFile(t.db, "cli", "proposals", file, "jsonl")).toMatchObject({
      ok: true,
      counts: { added: 2 },
    });
  });
});

describe("the admin page and the CLI hand the file's bytes to the check", () => {
  it("the import page refuses a Latin-1 upload with a 400 naming the line", async () => {
    process.env.DATABASE_URL = t.url;
    process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
    const admin = await createUser(t.db, "cli", {
      email: "admin@test.local",
      name: "admin",
      roles: ["admin"],
      password: "long-enough-1",
    });
    const form = new FormData();
    form.set("entity", "candidates");
    form.set(
      "file",
      new File([latin1("external_id,name\nC-9,J\u00fcrgen\n")], "people.csv", { type: "text/csv" }),
    );
    const { action } = await import("../../app/routes/admin.import");
    const request = new Request("http://localhost/admin/import", {
      method: "POST",
      body: form,
      headers: { Cookie: await signedInCookie(admin.id) },
    });
    const response = await action({ request, params: {}, context: { cspNonce: "", ip: "127.0.0.1" } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as unknown as {
      job: { state: string; result: { ok: boolean; errors: { line: number; message: string }[] } };
    };
    expect(body.job.state).toBe("refused");
    expect(body.job.result).toMatchObject({
      ok: false,
      errors: [{ line: 2, message: expect.stringMatching(/not valid UTF-8/) }],
    });
  });

  it("assay import refuses a Latin-1 file and names its line", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "assay-import-")), "people.csv");
    fs.writeFileSync(file, latin1("external_id,name\nC-8,Ann\nC-9,J\u00fcrgen\n"));
    const root = path.resolve(__dirname, "../..");
    const run = promisify(execFile)(
      process.execPath,
      [
        path.join(root, "node_modules/tsx/dist/cli.mjs"),
        path.join(root, "scripts/cli/assay.ts"),
        "import",
        "candidates",
        file,
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: t.url },
      },
    );
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`${file}:3: is not valid UTF-8`);
    expect(
      (await t.db.execute(sql`select 1 from candidates where external_id in ('C-8', 'C-9')`)).length,
    ).toBe(0);
  });
});

/** A signed-in user's Cookie header; the one place here that knows how sessions are made. */
async function signedInCookie(userId: number): Promise<string> {
  return createSessionCookie(t.db, userId);
}
