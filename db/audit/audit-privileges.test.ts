import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { recordAudit } from "./audit";

/**
 * The audit log is append-only for the role the web app runs as (`assay_app`, migrations/0011): it may
 * add entries and read them, but not change, delete or truncate one, nor switch off or drop the
 * trigger that guards them, nor alter the table. Tried as that role, on a real database.
 */
let t: TestDatabase;
let app: postgres.Sql;

beforeAll(async () => {
  t = await createTestDatabase();
  await recordAudit(t.db, "cli", "test.entry", "before");
  // The test's connection is the owner's; as `assay_app` it has exactly that role's privileges.
  app = postgres(t.url, { max: 1, onnotice: () => {}, connection: { role: "assay_app" } as never });
});
afterAll(async () => {
  await app.end();
  await t.drop();
});

const refusal = (statement: string) =>
  app.unsafe(statement).then(
    () => "allowed",
    (error: Error) => error.message,
  );

it("lets the app's role append and read audit entries, and write the other tables", async () => {
  const [role] =
    await app`select current_user as name, (select rolsuper from pg_roles where rolname = current_user) as superuser`;
  expect(role).toEqual({ name: "assay_app", superuser: false });
  await app`insert into audit_log (actor_label, action, target) values ('app', 'test.append', 'x')`;
  expect((await app`select action from audit_log order by id`).map((r) => r.action)).toEqual([
    "test.entry",
    "test.append",
  ]);
  await app`insert into subjects (key, name) values ('S-priv', 'Privileges')`;
  await app`update subjects set name = 'Renamed' where key = 'S-priv'`;
  await app`delete from subjects where key = 'S-priv'`;
});

it("refuses the app's role every way of rewriting the audit log", async () => {
  const owner = /^must be owner of (table|relation) audit_log$/;
  const denied = "permission denied for table audit_log";
  expect(await refusal("update audit_log set target = 'rewritten'")).toBe(denied);
  expect(await refusal("delete from audit_log")).toBe(denied);
  expect(await refusal("truncate audit_log")).toBe(denied);
  expect(await refusal("alter table audit_log disable trigger audit_log_append_only")).toMatch(owner);
  expect(await refusal("alter table audit_log disable trigger all")).toMatch(owner);
  expect(await refusal("drop trigger audit_log_append_only on audit_log")).toMatch(owner);
  expect(await refusal("alter table audit_log owner to assay_app")).toMatch(owner);
  expect(await refusal("select assay_grant_app_role()")).toMatch(/permission denied for function/);
  expect(await refusal("create table shadow (x int)")).toMatch(/permission denied for schema public/);
  const [{ n }] = await t.sql`select count(*)::int as n from audit_log where target = 'rewritten'`;
  expect(n).toBe(0);
});
