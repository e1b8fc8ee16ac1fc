import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { auditLog } from "../../db/schema";
import {
  acceptInvitation,
  BadLinkError,
  createInvitation,
  listInvitations,
  requestPasswordReset,
  resetPassword,
  resendInvitation,
  revokeInvitation,
} from "../../db/accounts/account-tokens";
import { createUser, findCredentials, type PublicUser } from "../../db/accounts/users";
import { verifyPassword } from "../../db/accounts/password";
import { createSession, listUserSessions } from "../../db/accounts/sessions";
import { invitationMail, resetMail, sendMail } from "./mail.server";

// A real SMTP server in the test: the mail goes over the wire and the link is read back from it.
const received: string[] = [];
let server: SMTPServer;
let t: TestDatabase;
let admin: PublicUser;
const BASE = "http://assay.test";

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push(raw);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  t = await createTestDatabase();
  admin = await createUser(t.db, "cli", {
    email: "root@test.local",
    name: "Root",
    roles: ["admin"],
    password: "long-enough-1",
  });
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await new Promise<void>((resolve) => server.close(resolve));
  await t.drop();
});

/** The token in the last mail's plain-text link (quoted-printable soft breaks undone). */
function lastLinkToken(path: string) {
  const raw = received.at(-1)!.replace(/=\r?\n/g, "");
  const match = new RegExp(`${BASE}${path}/([A-Za-z0-9_-]+)`).exec(raw);
  expect(match).not.toBeNull();
  return match![1];
}

const auditActions = async () => (await t.db.select().from(auditLog)).map((e) => e.action);

test("an invitation mailed over SMTP is accepted once, and the person can sign in", async () => {
  const invite = await createInvitation(t.db, admin, { email: "  Ａda@Example.ORG ", roles: ["expert"] });
  await sendMail(invitationMail("ada@example.org", `${BASE}/invite/${invite.token}`));
  const token = lastLinkToken("/invite");
  expect(received.at(-1)).toContain("Content-Type: text/html");

  const user = await acceptInvitation(t.db, token, {
    name: "Ada Lovelace",
    password: "analytical-engine-1843",
  });
  expect(user).toMatchObject({ email: "ada@example.org", roles: ["expert"] });
  const credentials = await findCredentials(t.db, "ADA@example.org");
  expect(await verifyPassword("analytical-engine-1843", credentials!.passwordHash)).toBe(true);

  await expect(
    acceptInvitation(t.db, token, { name: "Eve", password: "another-long-pass-99" }),
  ).rejects.toThrow("already been used");
  const [row] = (await listInvitations(t.db)).filter((i) => i.id === invite.id);
  expect(row.state).toBe("accepted");
  // The token itself is never in the audit log.
  const log = JSON.stringify(await t.db.select().from(auditLog));
  expect(log).not.toContain(token);
  expect(await auditActions()).toEqual(expect.arrayContaining(["invitation.accept", "invitation.refused"]));
});

test("a weak password leaves the invitation usable and creates nobody", async () => {
  const invite = await createInvitation(t.db, admin, { email: "bob@example.org", roles: ["analyst"] });
  await expect(acceptInvitation(t.db, invite.token, { name: "Bob", password: "password" })).rejects.toThrow();
  expect(await findCredentials(t.db, "bob@example.org")).toBeUndefined();
  await acceptInvitation(t.db, invite.token, { name: "Bob", password: "seven-bridges-of-k" });
  expect(await findCredentials(t.db, "bob@example.org")).toBeDefined();
});

test("expired, revoked, resent and forged links are refused and change nothing", async () => {
  const past = new Date(Date.now() - 8 * 86_400_000);
  const old = await createInvitation(t.db, admin, { email: "cy@example.org", roles: ["expert"] }, past);
  await expect(
    acceptInvitation(t.db, old.token, { name: "Cy", password: "long-enough-pass-1" }),
  ).rejects.toThrow("expired");
  const fresh = await resendInvitation(t.db, admin, old.id);
  const states = Object.fromEntries((await listInvitations(t.db)).map((i) => [i.id, i.state]));
  expect(states[old.id]).toBe("revoked");
  expect(states[fresh.id]).toBe("pending");
  await revokeInvitation(t.db, admin, fresh.id);
  await expect(
    acceptInvitation(t.db, fresh.token, { name: "Cy", password: "long-enough-pass-1" }),
  ).rejects.toThrow("withdrawn");
  const forged = acceptInvitation(t.db, "forged-token", { name: "Cy", password: "long-enough-pass-1" });
  await expect(forged).rejects.toBeInstanceOf(BadLinkError);
  expect(await findCredentials(t.db, "cy@example.org")).toBeUndefined();
});

test("a password reset by mail sets the password, ends every session and works once", async () => {
  const user = await createUser(t.db, admin, {
    email: "dee@example.org",
    name: "Dee",
    roles: ["expert"],
    password: "first-password-42",
  });
  const session = { idHash: "a".repeat(64), userId: user.id, userAgent: "", ip: "" };
  await createSession(t.db, session, { idleMs: 3_600_000, maxMs: 86_400_000 }, new Date());
  expect(await requestPasswordReset(t.db, "nobody@example.org")).toBeNull();
  const reset = await requestPasswordReset(t.db, "DEE@example.org");
  await sendMail(resetMail(reset!.email, `${BASE}/reset-password/${reset!.token}`));
  const token = lastLinkToken("/reset-password");

  await resetPassword(t.db, token, "second-password-77");
  const credentials = await findCredentials(t.db, "dee@example.org");
  expect(await verifyPassword("second-password-77", credentials!.passwordHash)).toBe(true);
  expect(await listUserSessions(t.db, user.id, new Date())).toHaveLength(0);
  await expect(resetPassword(t.db, token, "third-password-88")).rejects.toThrow("already been used");
  const refused = await t.db.select().from(auditLog).where(eq(auditLog.action, "reset.refused"));
  expect(refused.map((e) => e.detail)).toEqual([{ reason: "used" }]);
});
