import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { accountTokens, auditLog, campaigns } from "../../db/schema";
import { createUser } from "../../db/accounts/users";
import { createInvitation } from "../../db/accounts/account-tokens";

/** The invitations page's row actions: Resend and Revoke end the link already sent, so the server asks first. */
let t: TestDatabase;
let route: typeof import("./admin.users.invitations");
let adminCookie = "";
let outbox = "";

beforeAll(async () => {
  t = await createTestDatabase();
  outbox = await mkdtemp(path.join(tmpdir(), "assay-outbox-"));
  process.env.OUTBOX_DIR = outbox;
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  const admin = await createUser(t.db, "cli", {
    email: "ada@test.local",
    name: "Ada Admin",
    roles: ["admin"],
    password: "long-enough-1",
  });
  adminCookie = await createSessionCookie(t.db, admin.id);
  route = await import("./admin.users.invitations");
});
afterAll(async () => {
  await t.drop();
  await rm(outbox, { recursive: true, force: true });
});

const context = { cspNonce: "", ip: "127.0.0.1" };
async function post(fields: Record<string, string>) {
  const request = new Request("http://localhost/admin/users/invitations", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return (await route.action({ request, params: {}, context })) as Response;
}

let n = 0;
async function invite() {
  const email = `guest${++n}@test.local`;
  const { id } = await createInvitation(t.db, "cli", { email, roles: ["expert"] });
  return { id, email };
}
const liveLinks = async (email: string) =>
  t.db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.email, email), isNull(accountTokens.revokedAt)));
const audited = async () =>
  (await t.db.select({ action: auditLog.action }).from(auditLog)).map((e) => e.action);

describe("the invitations page's Resend and Revoke", () => {
  it("answers a post without confirmation with the question for that row, changing no link", async () => {
    const { id, email } = await invite();
    const before = await audited();
    for (const [intent, sentence] of [
      ["resend", "Confirm sending a new link."],
      ["revoke", "Confirm revoking the invitation."],
    ] as const) {
      const response = await post({ intent, id: String(id) });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.intent).toBe(intent);
      expect(body.result.error.confirmed).toEqual([sentence]);
      expect(body.result.initialValue).toMatchObject({ intent, id: String(id) });
      expect(body.done).toBeNull();
      expect(body.link).toBeUndefined();
    }
    expect(await liveLinks(email)).toEqual([{ id }]);
    expect(await audited()).toEqual(before);
  });

  it("revokes once confirmed, and resends once confirmed with a new link replacing the old", async () => {
    const first = await invite();
    expect(
      await (await post({ intent: "revoke", id: String(first.id), confirmed: "yes" })).json(),
    ).toMatchObject({
      done: "The invitation is revoked.",
    });
    expect(await liveLinks(first.email)).toEqual([]);

    const second = await invite();
    const resent = await (await post({ intent: "resend", id: String(second.id), confirmed: "yes" })).json();
    expect(resent.done).toBe(`Sent a new link to ${second.email}.`);
    expect(resent.link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
    const live = await liveLinks(second.email);
    expect(live).toHaveLength(1);
    expect(live[0].id).not.toBe(second.id);
    expect(await audited()).toEqual(expect.arrayContaining(["invitation.revoke", "invitation.resend"]));
  });
});

describe("the invitations list", () => {
  type Listed = { id: number; state: string; campaigns: { id: number; name: string }[] };
  const listed = async () => {
    const request = new Request("http://localhost/admin/users/invitations", {
      headers: { Cookie: adminCookie },
    });
    const response = (await route.loader({ request, params: {}, context })) as Response;
    return ((await response.json()) as { invitations: Listed[] }).invitations;
  };

  it("names the campaign an invitation is for, and marks the others organisation-wide", async () => {
    const [panel] = await t.db
      .insert(campaigns)
      .values({ name: "Panel 2027", poolDepth: 5, ratersPerProposal: 1 })
      .returning();
    const everywhere = await invite();
    const forPanel = await createInvitation(t.db, "cli", {
      email: "panel-guest@test.local",
      roles: ["expert"],
      campaignId: panel.id,
    });
    const byId = new Map((await listed()).map((i) => [i.id, i.campaigns]));
    expect(byId.get(forPanel.id)).toEqual([{ id: panel.id, name: "Panel 2027" }]);
    expect(byId.get(everywhere.id)).toEqual([]);
    // A resent campaign invitation is still that campaign's.
    await post({ intent: "resend", id: String(forPanel.id), confirmed: "yes" });
    const pending = (await listed()).filter((i) => i.state === "pending" && i.campaigns.length > 0);
    expect(pending.map((i) => i.campaigns)).toEqual([[{ id: panel.id, name: "Panel 2027" }]]);
  });
});
