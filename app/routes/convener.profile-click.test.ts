import { sql } from "drizzle-orm";
import type { ServerBuild } from "@remix-run/node";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { seedDemo } from "../../scripts/demo/seed";
import { openProposal } from "../../db/experiments/convener";
import { csrfToken, guardActions } from "../security/csrf.server";

/**
 * Opening a candidate's profile is a logged click, and a state change is never a GET: the profile page
 * only reads, whoever caused the request, and the click is recorded by the card's POST, which passes
 * the CSRF check like every form.
 */
let t: TestDatabase;
let cookie = "";
let proposal = "";
let candidate = "";
let route: typeof import("./convener.proposals.$proposalId.candidates.$candidateId");

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 20, candidates: 300, seed: "click-test" });
  const [convener] = await t.db.execute<{ id: number }>(
    sql`select id from users where email = 'convener@assay.local'`,
  );
  const [assigned] = await t.db.execute<{ external_id: string }>(
    sql`select p.external_id from convener_assignments a join proposals p on p.id = a.proposal_id
        where a.user_id = ${convener.id} order by p.external_id limit 1`,
  );
  proposal = assigned.external_id;
  const opened = await openProposal(t.db, convener.id, proposal);
  candidate = opened.list[0].externalId;
  cookie = await createSessionCookie(t.db, convener.id);
  route = await import("./convener.proposals.$proposalId.candidates.$candidateId");
});
afterAll(() => t.drop());

const clicks = async () =>
  (
    await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from events where type = 'click' and candidate_id = ${candidate}
          and session_id in (select id from convener_sessions)`,
    )
  )[0].n;
const url = () =>
  `http://localhost/convener/proposals/${encodeURIComponent(proposal)}/candidates/${encodeURIComponent(candidate)}`;
const params = () => ({ proposalId: proposal, candidateId: candidate });

async function settle(promise: unknown): Promise<Response> {
  try {
    return (await promise) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

it("records no click when the profile is loaded by a GET, even one another site caused", async () => {
  const before = await clicks();
  for (const headers of <Record<string, string>[]>[
    { Cookie: cookie },
    { Cookie: cookie, Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" },
    { Cookie: cookie, Referer: "http://evil.example/page", "Sec-Fetch-Site": "cross-site" },
  ]) {
    const response = await settle(
      route.loader({
        request: new Request(url(), { headers }),
        params: params(),
        context: { cspNonce: "", ip: "" },
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).candidate.externalId).toBe(candidate);
  }
  expect(await clicks()).toBe(before);
});

it("records the click by the card's POST: once with this session's CSRF token, never without it", async () => {
  const build = {
    routes: { profile: { id: "profile", path: "profile", module: { action: route.action } } },
  };
  const action = guardActions(build as unknown as ServerBuild).routes.profile.module.action!;
  const post = (fields: Record<string, string>) =>
    settle(
      action({
        request: new Request(url(), {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields),
        }),
        params: params(),
        context: { cspNonce: "", ip: "127.0.0.1" },
      }),
    );
  const before = await clicks();
  expect((await post({ intent: "open" })).status).toBe(403);
  expect((await post({ intent: "open", csrf: "forged" })).status).toBe(403);
  expect(await clicks()).toBe(before);
  const token = csrfToken(new Request(url(), { headers: { Cookie: cookie } })).token;
  const opened = await post({ intent: "open", csrf: token });
  expect([opened.status, opened.headers.get("Location")]).toEqual([303, new URL(url()).pathname]);
  expect(await clicks()).toBe(before + 1);
});

describe("the proposal page's impression", () => {
  let page: typeof import("./convener.proposals.$proposalId._index");
  beforeAll(async () => {
    page = await import("./convener.proposals.$proposalId._index");
  });
  const impressions = async () =>
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from events where type = 'impression' and proposal_id = ${proposal}`,
      )
    )[0].n;
  const pageUrl = () => `http://localhost/convener/proposals/${encodeURIComponent(proposal)}`;
  const load = async (headers: Record<string, string>) => {
    const response = await settle(
      page.loader({
        request: new Request(pageUrl(), { headers }),
        params: { proposalId: proposal },
        context: { cspNonce: "", ip: "" },
      }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { view: string | null; list: unknown[] };
  };

  it("is not logged by a GET, even one another site caused", async () => {
    const before = await impressions();
    await load({ Cookie: cookie });
    await load({ Cookie: cookie, Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect(await impressions()).toBe(before);
  });

  it("is logged by the page's POST with its view: once, with the CSRF token, a replay logs nothing", async () => {
    const build = { routes: { page: { id: "page", path: "page", module: { action: page.action } } } };
    const action = guardActions(build as unknown as ServerBuild).routes.page.module.action!;
    const post = (fields: Record<string, string>) =>
      settle(
        action({
          request: new Request(pageUrl(), {
            method: "POST",
            headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(fields),
          }),
          params: { proposalId: proposal },
          context: { cspNonce: "", ip: "127.0.0.1" },
        }),
      );
    const { view, list } = await load({ Cookie: cookie });
    expect(view).not.toBeNull();
    const before = await impressions();
    const token = csrfToken(new Request(pageUrl(), { headers: { Cookie: cookie } })).token;
    // Without the CSRF token (the origin half of the guard runs before, in server.ts: cross-site.test.ts).
    expect((await post({ intent: "impression", view: view! })).status).toBe(403);
    const forged = await post({ intent: "impression", view: `${view!.split(".")[0]}.forged`, csrf: token });
    expect(forged.status).toBe(400);
    expect(await impressions()).toBe(before);
    const logged = await post({ intent: "impression", view: view!, csrf: token });
    expect([logged.status, (await logged.json()).logged]).toEqual([200, true]);
    const replay = await post({ intent: "impression", view: view!, csrf: token });
    expect([replay.status, (await replay.json()).logged]).toEqual([200, false]);
    expect(await impressions()).toBe(before + 1);
    // The impression still carries the list as shown, in order.
    const [stored] = await t.db.execute<{ items: string[] }>(
      sql`select items from events where type = 'impression' and event_id = ${view!.split(".")[0]}`,
    );
    expect(stored.items).toEqual((list as { externalId: string }[]).map((c) => c.externalId));
  });
});
