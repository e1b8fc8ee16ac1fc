import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser, type PublicUser } from "./users";
import { createInvitation } from "./account-tokens";
import { saveSignInSettings } from "./sign-in-settings";
import { signInWithOidc, type OidcIdentity } from "./sso";

/**
 * Two first sign-ins of one person at once (two tabs, a double click on the provider's page) both sign
 * in, as one account with one link: the unique indexes that keep the accounts apart never reach the
 * person as an error. Each case races several calls of the real function on the real database.
 */
let t: TestDatabase;
let admin: PublicUser;
const ISSUER = "https://idp.example.org";

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await createUser(t.db, "cli", {
    email: "admin@assay.local",
    name: "Ada",
    roles: ["admin"],
    password: "long-enough-1",
  });
});
afterAll(() => t.drop());

const identity = (who: string): OidcIdentity => ({
  issuer: ISSUER,
  subject: `sub-${who}`,
  email: `${who}@example.org`,
  emailVerified: true,
  name: who,
});

/** The accounts holding the email, and those linked to the identity. */
async function accountsOf(who: string) {
  const [row] = await t.db.execute<{ byEmail: number; linked: number }>(
    sql`select (select count(*)::int from users where email = ${`${who}@example.org`}) as "byEmail",
               (select count(*)::int from users where oidc_issuer = ${ISSUER} and oidc_subject = ${`sub-${who}`}) as linked`,
  );
  return row;
}

async function race(who: string, calls = 4) {
  const outcomes = await Promise.allSettled(
    Array.from({ length: calls }, () => signInWithOidc(t.db, identity(who), "127.0.0.1")),
  );
  const failed = outcomes.filter((o) => o.status === "rejected").map((o) => String(o.reason));
  expect(failed).toEqual([]);
  const ids = outcomes.map((o) => (o as PromiseFulfilledResult<{ user: PublicUser }>).value.user.id);
  expect(new Set(ids).size).toBe(1);
  expect(await accountsOf(who)).toEqual({ byEmail: 1, linked: 1 });
  return outcomes.map((o) => (o as PromiseFulfilledResult<{ how: string }>).value.how);
}

it("an invited person's first sign-ins at once: all sign in, one account, the invitation used once", async () => {
  await createInvitation(t.db, admin, { email: "ivy@example.org", roles: ["expert"] });
  const how = await race("ivy");
  expect(how.filter((h) => h === "invited")).toHaveLength(1);
  const [invitation] = await t.db.execute<{ used: boolean }>(
    sql`select used_at is not null as used from account_tokens where email = 'ivy@example.org'`,
  );
  expect(invitation.used).toBe(true);
  const created = await t.db.execute(
    sql`select 1 from audit_log where action = 'user.create' and target in (select 'user:' || id from users where email = 'ivy@example.org')`,
  );
  expect(created).toHaveLength(1);
});

it("a stranger allowed to join: all sign in, one account", async () => {
  await saveSignInSettings(t.db, admin, {
    unknownEmails: "join",
    joinRoles: ["expert"],
    passwordSignIn: true,
  });
  const how = await race("sam");
  expect(how.filter((h) => h === "joined")).toHaveLength(1);
});

it("an existing account's first sign-ins at once: linked once, with one audit entry", async () => {
  await createUser(t.db, "cli", {
    email: "lou@example.org",
    name: "Lou",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  const how = await race("lou");
  expect(how.filter((h) => h === "linked")).toHaveLength(1);
  const links = await t.db.execute(sql`select 1 from audit_log where action = 'user.sso-link'`);
  expect(links).toHaveLength(1);
});
