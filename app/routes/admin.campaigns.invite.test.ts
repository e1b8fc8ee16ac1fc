import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { accountTokens, campaignExperts, campaignInvitations, campaigns } from "../../db/schema";
import { createUser } from "../../db/accounts/users";
import { acceptInvitation } from "../../db/accounts/account-tokens";

/**
 * Inviting experts from a campaign's page: the role is fixed to expert whatever the form sends, and the
 * accepted invitation (also after a resend) puts the new person on that campaign's expert pool.
 */
let t: TestDatabase;
let page: typeof import("./admin.campaigns.$campaignId");
let cookie = "";
let outbox = "";
let campaignId = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  outbox = await fs.mkdtemp(path.join(os.tmpdir(), "assay-outbox-"));
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    SESSION_SECRET: "a-test-secret-that-is-long-enough-to-sign",
    OUTBOX_DIR: outbox,
  });
  delete process.env.SMTP_URL;
  page = await import("./admin.campaigns.$campaignId");
  const admin = await createUser(t.db, "cli", {
    email: "root@test.local",
    name: "Root",
    roles: ["admin"],
    password: "long-enough-1",
  });
  cookie = await createSessionCookie(t.db, admin.id);
  [{ id: campaignId }] = await t.db
    .insert(campaigns)
    .values({ name: "Panel 2027", poolDepth: 5, ratersPerProposal: 1 })
    .returning();
});
afterAll(async () => {
  delete process.env.OUTBOX_DIR;
  await fs.rm(outbox, { recursive: true, force: true });
  await t.drop();
});

async function post(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  const request = new Request(`http://localhost/admin/campaigns/${campaignId}`, {
    method: "POST",
    body,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const response = await page.action({
    request,
    params: { campaignId: String(campaignId) },
    context: { cspNonce: "", ip: "127.0.0.1" },
  });
  return {
    status: response.status,
    body: (await response.json()) as unknown as { done: string | null; link: string | null },
  };
}

const tokenOf = (link: string) => link.split("/invite/")[1];

test("an invitation from the campaign page is for an expert only, and accepting it joins the campaign's pool", async () => {
  const invited = await post({
    intent: "invite",
    email: "New.Expert@Example.org",
    roles: ["admin", "expert"],
  });
  expect(invited.status).toBe(200);
  expect(invited.body.done).toBe("Invited New.Expert@Example.org as an expert of this campaign.");
  const [row] = await t.db
    .select()
    .from(accountTokens)
    .where(eq(accountTokens.email, "new.expert@example.org"));
  expect(row.roles).toEqual(["expert"]);
  expect(await t.db.select().from(campaignInvitations)).toEqual([{ tokenId: row.id, campaignId }]);

  // A resend replaces the link; the new one still belongs to the campaign, the old one no longer works.
  // Resending ends the link already sent, so it is confirmed first (the dialog's field).
  expect((await post({ intent: "resend", id: String(row.id) })).status).toBe(400);
  const resent = await post({ intent: "resend", id: String(row.id), confirmed: "yes" });
  expect(resent.status).toBe(200);
  await expect(
    acceptInvitation(t.db, tokenOf(invited.body.link!), {
      name: "Old Link",
      password: "a-long-password-2027",
    }),
  ).rejects.toThrow(/revoked|withdrawn/i);
  const user = await acceptInvitation(t.db, tokenOf(resent.body.link!), {
    name: "New Expert",
    password: "a-long-password-2027",
  });
  expect(user.roles).toEqual(["expert"]);
  expect(await t.db.select().from(campaignExperts).where(eq(campaignExperts.campaignId, campaignId))).toEqual(
    [{ campaignId, userId: user.id }],
  );
});

test("an email that already has an account is refused with a 400 naming it, and nothing is sent", async () => {
  const before = (await fs.readdir(outbox)).length;
  const refused = await post({ intent: "invite", email: "root@test.local" });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain("A user with the email root@test.local already exists.");
  expect((await fs.readdir(outbox)).length).toBe(before);
});
