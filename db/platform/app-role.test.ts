import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { appPasswordFile, embeddedAppUrl } from "./app-role";

/** The embedded default serves the app as `assay_app` (not a superuser, owner of nothing), stable across starts. */
let t: TestDatabase;
let dataDir = "";

beforeAll(async () => {
  t = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-app-role-"));
});
afterAll(async () => {
  await t.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

it("gives the app a login as assay_app, which owns no table, with a password kept beside the cluster", async () => {
  const url = await embeddedAppUrl(t.url, dataDir);
  expect(new URL(url).username).toBe("assay_app");
  expect((await fs.stat(appPasswordFile(dataDir))).mode & 0o777).toBe(0o600);
  // A second start keeps the password: the URL is the same.
  expect(await embeddedAppUrl(t.url, dataDir)).toBe(url);
  const app = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [me] =
      await app`select current_user as name, r.rolsuper as superuser, r.rolcreaterole as createrole,
      (select count(*)::int from pg_tables where schemaname = 'public' and tableowner = current_user) as owned
      from pg_roles r where r.rolname = current_user`;
    expect(me).toEqual({ name: "assay_app", superuser: false, createrole: false, owned: 0 });
    await expect(app`update audit_log set target = 'x'`).rejects.toThrow(/permission denied/);
  } finally {
    await app.end();
  }
});
