import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../../db/accounts/users";
import { createSnapshot } from "../../db/snapshots/snapshots";
import { pseudonymizer } from "../../db/campaigns/campaign-data";
import { createSessionCookie } from "../../test/session-cookie";

/**
 * Analysts see experts only under the pseudonyms the exports use; names and emails stay with admins.
 * The demo data's experts have real-looking names and emails to look for.
 */
let t: TestDatabase;
let campaignId = 0;
let experts: { id: number; name: string; email: string }[] = [];
let analystCookie = "";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 30, candidates: 300, seed: "privacy-test" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(
    sql`select id from campaigns where status <> 'draft' limit 1`,
  );
  experts = [
    ...(await t.db.execute<{ id: number; name: string; email: string }>(
      sql`select id, name, email from users where 'expert' = any(roles)`,
    )),
  ];
  const analyst = await createUser(t.db, "cli", {
    email: "privacy-analyst@test.local",
    name: "Ana Lyst",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  analystCookie = await createSessionCookie(t.db, analyst.id);
});
afterAll(() => t.drop());

const leaks = (text: string) => experts.flatMap((e) => [e.name, e.email]).filter((s) => text.includes(s));

it("the analyst's campaign dashboard holds pseudonyms, no expert name or email", async () => {
  expect(experts.length).toBeGreaterThan(0);
  const { loader } = await import("./analyst.campaigns.$campaignId");
  const request = new Request(`http://localhost/analyst/campaigns/${campaignId}`, {
    headers: { Cookie: analystCookie },
  });
  const response = await loader({
    request,
    params: { campaignId: String(campaignId) },
    context: { cspNonce: "", ip: "127.0.0.1" },
  });
  const text = await response.text();
  expect(leaks(text)).toEqual([]);
  const data = JSON.parse(text);
  expect(data.agreement.leaveOneOut.length).toBeGreaterThan(0);
  for (const row of data.agreement.leaveOneOut) expect(row.rater).toMatch(/^E-[0-9a-f]{8}$/);
  const pseudonym = await pseudonymizer(t.db, campaignId);
  expect(experts.map((e) => pseudonym(e.id))).toEqual(
    expect.arrayContaining(data.agreement.leaveOneOut.map((r: { rater: string }) => r.rater)),
  );
});

it("keys pseudonyms: none is the unkeyed sha256 of campaign and user, and one expert differs across campaigns", async () => {
  // The demo has one campaign; the next id stands for another (pseudonyms depend on the id only).
  const here = await pseudonymizer(t.db, campaignId);
  const there = await pseudonymizer(t.db, campaignId + 1);
  // What an analyst could compute from the ids alone: every user id tried in this campaign's formula.
  const guess = (campaign: number, user: number) =>
    `E-${createHash("sha256").update(`${campaign}:${user}`).digest("hex").slice(0, 8)}`;
  const tried = new Set(Array.from({ length: 10_000 }, (_, user) => guess(campaignId, user)));
  for (const e of experts) {
    expect(tried.has(here(e.id))).toBe(false);
    expect(here(e.id)).not.toBe(there(e.id));
    expect(here(e.id)).toBe((await pseudonymizer(t.db, campaignId))(e.id)); // stable
  }
  // The key lives in the database (made at first use), so every server and the CLI on it derive the same pseudonyms.
  const [key] = await t.db.execute<{ n: number; length: number }>(
    sql`select count(*)::int as n, max(length(key))::int as length from server_keys where purpose = 'pseudonyms'`,
  );
  expect(key).toEqual({ n: 1, length: 64 });
});

it("the dashboard data hides names by default and shows them only when the admin page asks", async () => {
  const { campaignDashboard } = await import("~/results/dashboards.server");
  const hidden = JSON.stringify(await campaignDashboard(String(campaignId)));
  expect(leaks(hidden)).toEqual([]);
  const named = await campaignDashboard(String(campaignId), { names: true });
  expect(named.perExpert.map((e) => e.name)).toEqual(
    expect.arrayContaining([experts.find((e) => e.id === named.perExpert[0].expertId)!.name]),
  );
  // Each call waits up to 2 s for the demo's gold figures (learning curves) before answering "computing".
}, 120_000);

it("an expert snapshot stores no expert name or email", async () => {
  const snapshot = await createSnapshot(t.db, "cli", { kind: "expert", campaign: campaignId, B: 50 });
  expect(leaks(JSON.stringify(snapshot))).toEqual([]);
  // The snapshot holds the gold figures: 1,000 Dawid–Skene draws per point of the learning curves.
}, 180_000);
