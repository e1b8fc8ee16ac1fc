import { createHash } from "node:crypto";
import { createDb } from "../../db/platform/client";
import { freePort } from "../../db/platform/embedded";
import { createTestDatabase } from "../../test/database";
import { describeError, redactSecrets } from "./log";

/** A log line never holds a key, a key hash, a password hash or a query's parameters. */
const key = "assay_Zm9vYmFyYmF6cXV4cXV1eGZvb2Jhcg1234";
const hash = createHash("sha256").update(key).digest("hex");

it("describes a failed query by its message, code and query text, without its parameters", async () => {
  const t = await createTestDatabase();
  try {
    const error = await t.db
      .execute(`select * from experiment_api_keys where hash = '${hash}' and nonsense`)
      .catch((e: unknown) => e);
    const viaParameters = await t.sql`select ${hash}::int`.catch((e: unknown) => e);
    const line = describeError("GET /x", error);
    expect(line).toMatch(/^GET \/x \| .*code 42703/);
    expect(line).not.toContain(hash);
    const second = describeError("GET /y", viaParameters);
    expect(second).toMatch(/code 22P02/);
    expect(second).not.toContain(hash);
  } finally {
    await t.drop();
  }
});

it("leaves out drizzle's copy of the parameters when the database is unreachable", async () => {
  const { db, sql } = createDb(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`, { max: 1 });
  const error = await db.query.experimentApiKeys
    .findFirst({ where: (k, { eq }) => eq(k.hash, hash) })
    .catch((e: unknown) => e);
  await sql.end();
  expect(String((error as Error).message)).toContain(hash); // what the raw error would have logged
  const line = describeError("POST /api/events", error);
  expect(line).toMatch(/query failed .*code ECONNREFUSED/);
  expect(line).not.toContain(hash);
});

it("masks keys, bearer tokens, hashes and passwords in any text", () => {
  const text = `Bearer ${key} key=${key} ${hash} $scrypt$N=16384,r=8,p=1$c2FsdA$aGFzaA password=hunter2 postgres://assay:s3cret@127.0.0.1:5432/assay`;
  const masked = redactSecrets(text);
  for (const secret of [key, hash, "aGFzaA", "hunter2", "s3cret"]) expect(masked).not.toContain(secret);
  expect(redactSecrets("select 1 from users where id = $1")).toBe("select 1 from users where id = $1");
});
