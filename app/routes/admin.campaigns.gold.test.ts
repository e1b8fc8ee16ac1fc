import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { seedDemo } from "../../scripts/demo/seed";
import { createUser } from "../../db/accounts/users";
import { listTruth } from "../../db/campaigns/campaign-truth";
import { answerErrors } from "../forms/forms";

/**
 * The admin campaign page's gold items form (attach a known grade to a pooled pair, remove it), through
 * the route's action with a signed-in admin's cookie and CSRF token; and the export route's `aggregate`.
 */
let t: TestDatabase;
let campaignId = 0;
let adminCookie = "";
let analystCookie = "";
let pair = { proposal: "", candidate: "" };
let route: typeof import("./admin.campaigns.$campaignId");
let csrf: typeof import("../security/csrf.server");

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 12, candidates: 200, seed: "gold-form-test" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
  [pair] = await t.db.execute<{
    proposal: string;
    candidate: string;
  }>(sql`select p.external_id as proposal, c.external_id as candidate
    from campaign_items i join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
    where i.campaign_id = ${campaignId} and i.id not in (select item_id from campaign_truth) order by i.id limit 1`);
  const [admin] = await t.db.execute<{ id: number }>(
    sql`select id from users where 'admin' = any(roles) limit 1`,
  );
  adminCookie = await createSessionCookie(t.db, admin.id);
  const analyst = await createUser(t.db, "cli", {
    email: "gold-form-analyst@test.local",
    name: "Ana Lyst",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  analystCookie = await createSessionCookie(t.db, analyst.id);
  [route, csrf] = await Promise.all([
    import("./admin.campaigns.$campaignId"),
    import("../security/csrf.server"),
  ]);
}, 120_000);
afterAll(() => t.drop());

const context = { cspNonce: "", ip: "127.0.0.1" };

/** Posts the page's form as the browser does: the session cookie and the CSRF token of that session. */
async function post(fields: Record<string, string>, cookie = adminCookie) {
  const token = csrf.csrfToken(new Request("http://localhost/", { headers: { Cookie: cookie } })).token;
  const request = new Request(`http://localhost/admin/campaigns/${campaignId}`, {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  try {
    return (await route.action({ request, params: { campaignId: String(campaignId) }, context })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const goldOf = async () =>
  (await listTruth(t.db, campaignId)).find(
    (r) => r.proposal === pair.proposal && r.candidate === pair.candidate,
  );
const auditCount = async (action: string) =>
  (
    await t.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log where action = ${action}`)
  )[0].n;

describe("gold items on the admin campaign page", () => {
  it("attaches a known grade to a pooled pair, changes it, and removes it, each with an audit entry", async () => {
    const attached = await post({
      intent: "attach-truth",
      proposal: pair.proposal,
      candidate: pair.candidate,
      grade: "3",
    });
    expect(attached.status).toBe(200);
    expect((await attached.json()).done).toBe(
      `Gold item ${pair.proposal} / ${pair.candidate} attached: known grade 3.`,
    );
    expect((await goldOf())?.grade).toBe(3);
    const changed = await post({
      intent: "attach-truth",
      proposal: pair.proposal,
      candidate: pair.candidate,
      grade: "2",
    });
    expect((await changed.json()).done).toContain("changed: known grade 2");
    expect(await auditCount("campaign.truth.attach")).toBe(2);
    const gold = (await goldOf())!;
    const removed = await post({ intent: "remove-truth", item: String(gold.itemId) });
    expect(removed.status).toBe(200);
    expect(await goldOf()).toBeUndefined();
    expect(await auditCount("campaign.truth.remove")).toBe(1);
    const again = await post({ intent: "remove-truth", item: String(gold.itemId) });
    expect(again.status).toBe(404);
    expect(answerErrors(await again.json())).toEqual(["That pair is not a gold item of this campaign."]);
  });

  it("refuses a grade off the scale, a pair the campaign did not pool, and a non-admin, writing nothing", async () => {
    const before = await listTruth(t.db, campaignId);
    const offScale = await post({
      intent: "attach-truth",
      proposal: pair.proposal,
      candidate: pair.candidate,
      grade: "5",
    });
    expect(offScale.status).toBe(400);
    expect(answerErrors(await offScale.json())).toEqual(["Choose a known grade from 1 to 4."]);
    const unpooled = await post({
      intent: "attach-truth",
      proposal: pair.proposal,
      candidate: "no-such-candidate",
      grade: "2",
    });
    expect(unpooled.status).toBe(400);
    expect(answerErrors(await unpooled.json()).join(" ")).toContain(
      `${pair.proposal} / no-such-candidate is not a pair of this campaign`,
    );
    const empty = await post({ intent: "attach-truth", proposal: "", candidate: pair.candidate, grade: "2" });
    expect(answerErrors(await empty.json())).toEqual(["Give the proposal's id."]);
    const analyst = await post(
      { intent: "attach-truth", proposal: pair.proposal, candidate: pair.candidate, grade: "2" },
      analystCookie,
    );
    expect(analyst.status).toBe(403);
    expect(await listTruth(t.db, campaignId)).toEqual(before);
  });
});

describe("asking for more grades on the admin campaign page", () => {
  const assignments = async () =>
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from campaign_assignments where campaign_id = ${campaignId}`,
      )
    )[0].n;
  const itemIds = async () =>
    (
      await t.db.execute<{ id: number }>(
        sql`select id from campaign_items where campaign_id = ${campaignId} order by id limit 3`,
      )
    ).map((r) => String(r.id));

  it("gives the top pairs new experts, scoped to those pairs, and says so", async () => {
    await createUser(t.db, "cli", {
      email: "more-grades@test.local",
      name: "More Grades",
      roles: ["expert"],
      password: "long-enough-1",
    });
    const before = await assignments();
    const items = await itemIds();
    const response = await post({ intent: "request-grades", items: items.join(","), top: "1", raters: "1" });
    expect(response.status).toBe(200);
    expect((await response.json()).done).toBe(
      "Asked for 1 more grade on 1 pair: 1 new assignment over 1 proposal, each for the chosen pairs only.",
    );
    expect(await assignments()).toBe(before + 1);
    const scope = await t.db.execute<{ itemId: number }>(
      sql`select item_id as "itemId" from campaign_assignment_items`,
    );
    expect(scope.map((r) => String(r.itemId))).toEqual([items[0]]);
    expect(await auditCount("campaign.grades.request")).toBe(1);
  });

  it("refuses bad counts, too few eligible experts and a non-admin, writing nothing", async () => {
    const before = await assignments();
    const items = (await itemIds()).join(",");
    const tooMany = await post({ intent: "request-grades", items, top: "1", raters: "9" });
    expect(tooMany.status).toBe(400);
    expect(answerErrors(await tooMany.json())).toEqual(["Choose how many more grades per pair, 1 to 5."]);
    const noPairs = await post({ intent: "request-grades", items: "", top: "1", raters: "1" });
    expect(answerErrors(await noPairs.json())).toEqual(["No pair needs another grade."]);
    // The one expert who never had that proposal has it now: nobody is left for it.
    const again = await post({ intent: "request-grades", items, top: "1", raters: "1" });
    expect(again.status).toBe(409);
    expect(answerErrors(await again.json()).join(" ")).toMatch(
      /has only 0 eligible experts who never had it/,
    );
    const analyst = await post({ intent: "request-grades", items, top: "1", raters: "1" }, analystCookie);
    expect(analyst.status).toBe(403);
    expect(await assignments()).toBe(before);
  });
});

describe("GET /api/campaigns/:id/export?aggregate=", () => {
  const get = async (query: string) => {
    const { loader } = await import("./api.campaigns.$campaignId.export");
    const request = new Request(`http://localhost/api/campaigns/${campaignId}/export?${query}`, {
      headers: { Cookie: analystCookie },
    });
    try {
      return (await loader({ request, params: { campaignId: String(campaignId) }, context })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  it.each(["median", "majority", "mean", "dawid-skene"])("exports qrels aggregated by %s", async (method) => {
    const response = await get(`format=qrels&aggregate=${method}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain(
      method === "median" ? `campaign-${campaignId}.qrels` : `campaign-${campaignId}-${method}.qrels`,
    );
    const lines = (await response.text()).trim().split("\n");
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(line).toMatch(/^\S+ 0 \S+ [0-3]$/);
  });

  it("refuses an unknown method with a sentence and a 400", async () => {
    const response = await get("aggregate=vote");
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(
      "This address has a query parameter Assay cannot use: aggregate must be median, majority, mean, dawid-skene.",
    );
  });
});
