import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { seedDemo } from "../../scripts/demo/seed";
import { answerErrors } from "../forms/forms";

/**
 * What the server sends an expert for a task (the loader's data and every save's answer) holds none
 * of the pooled candidates' names, external ids, affiliations or emails, nor ranks, scores or system
 * keys: checked against the database's values, not a hand-written list.
 */
let t: TestDatabase;
let cookie = "";
let expertId = 0;
let assignmentId = 0;
let goldItems: number[] = [];
let route: typeof import("./expert.assignments.$assignmentId");

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 20, candidates: 300, seed: "blind-test" });
  const [expert] = await t.db.execute<{ id: number }>(
    sql`select id from users where email = 'expert@assay.local'`,
  );
  [{ id: assignmentId }] = await t.db.execute<{ id: number }>(
    sql`select id from campaign_assignments where expert_id = ${expert.id} order by id limit 1`,
  );
  // Two of this assignment's pairs are gold items (known grades): they must look like every other card.
  goldItems = (
    await t.db.execute<{
      id: number;
    }>(sql`select i.id from campaign_items i join campaign_assignments a on a.campaign_id = i.campaign_id and a.proposal_id = i.proposal_id
    where a.id = ${assignmentId} order by i.id limit 2`)
  ).map((r) => r.id);
  await t.db.execute(
    sql`insert into campaign_truth (item_id, grade) values (${goldItems[0]}, 4), (${goldItems[1]}, 1)`,
  );
  expertId = expert.id;
  cookie = await createSessionCookie(t.db, expert.id);
  route = await import("./expert.assignments.$assignmentId");
});
afterAll(() => t.drop());

async function bodyOf(promise: Promise<Response>) {
  try {
    return await (await promise).text();
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${await thrown.text()}`;
    throw thrown;
  }
}

// Blindness holds per role: an expert who is also an analyst, or holds every role, sees no more.
it.each([["expert"], ["analyst", "expert"], ["admin", "analyst", "expert", "convener"]])(
  "sends %s nothing that identifies, ranks or attributes a pooled candidate",
  async (...held) => {
    await t.db.execute(sql`update users set roles = ${`{${held.join(",")}}`}::role[] where id = ${expertId}`);
    const params = { assignmentId: String(assignmentId) };
    const loaded = await bodyOf(
      route.loader({
        request: new Request("http://x/expert/assignments/1", { headers: { Cookie: cookie } }),
        params,
        context: { cspNonce: "", ip: "" },
      }) as Promise<Response>,
    );
    const view = JSON.parse(loaded);
    const saves = await Promise.all(
      view.cards.slice(0, 3).map((c: { id: number; position: number }) => {
        const form = new FormData();
        for (const [k, v] of Object.entries({
          item: c.id,
          grade: "3",
          rationale: "",
          position: c.position,
          timeSpentMs: 10,
        }))
          form.set(k, String(v));
        return bodyOf(
          route.action({
            request: new Request("http://x", { method: "POST", body: form, headers: { Cookie: cookie } }),
            params,
            context: { cspNonce: "", ip: "" },
          }) as Promise<Response>,
        );
      }),
    );
    const sent = [loaded, ...saves].join("\n");
    const secrets = await t.db.execute<{
      name: string;
      external_id: string;
      affiliation: string;
      email: string | null;
    }>(sql`
    select c.name, c.external_id, c.affiliation, c.email from campaign_items i join candidates c on c.id = i.candidate_id
    join campaign_assignments a on a.campaign_id = i.campaign_id and a.proposal_id = i.proposal_id where a.id = ${assignmentId}`);
    expect(secrets.length).toBe(view.cards.length);
    for (const s of secrets)
      for (const value of [s.name, s.external_id, s.affiliation, s.email])
        if (value) expect(sent).not.toContain(value);
    for (const key of (await t.db.execute<{ key: string }>(sql`select key from systems`)).map((r) => r.key))
      expect(sent).not.toContain(key);
    const keys = JSON.stringify(view)
      .match(/"([a-zA-Z]+)":/g)!
      .map((k) => k.slice(1, -2).toLowerCase());
    for (const forbidden of ["rank", "score", "system", "name", "affiliation", "externalid", "email"])
      expect(keys).not.toContain(forbidden);
    // A save answers that it landed, and nothing else: no echo of the card, nothing about the pool.
    expect(saves.every((s) => s === '{"intent":"grade","result":{"initialValue":null},"done":null}')).toBe(
      true,
    );
    // Gold items are graded like any card: nothing says which are gold or what their known grade is.
    for (const forbidden of ["gold", "truth", "known", "isgold", "expected"])
      expect(keys).not.toContain(forbidden);
    expect(sent).not.toMatch(/gold|truth/i);
    // Group attributes (the demo seeds gender, country and career stage) never reach an expert.
    const attributeNames = (
      await t.db.execute<{ attribute: string }>(sql`select distinct attribute from candidate_attributes`)
    ).map((r) => r.attribute);
    expect(attributeNames.length).toBeGreaterThan(0);
    for (const name of [...attributeNames, "attribute", "group"]) expect(sent).not.toContain(`"${name}"`);
    // Nor do the campaign's grades by group (the analyst's figures of the same campaign's pairs).
    for (const forbidden of ["gradesbygroup", "poolshare", "poolsize", "suppressed", "highpairs"])
      expect(keys).not.toContain(forbidden);
    const cards = view.cards as { id: number }[];
    const gold = cards.filter((c) => goldItems.includes(c.id));
    expect(gold.length).toBe(2);
    const shape = (c: object) => Object.keys(c).sort().join(",");
    for (const c of cards) expect(shape(c)).toBe(shape(gold[0]));
  },
);

it.each([
  ["0", "grade must be 1, 2, 3, 4 or can't judge"],
  ["5", "grade must be 1, 2, 3, 4 or can't judge"],
  ["2.5", "grade must be 1, 2, 3, 4 or can't judge"],
  ["x", "grade must be 1, 2, 3, 4 or can't judge"],
  [undefined, "grade must be 1, 2, 3, 4 or can't judge"],
])("refuses the grade %s with a clear message and a 400", async (grade, message) => {
  const form = new FormData();
  form.set("item", "1");
  form.set("position", "1");
  if (grade !== undefined) form.set("grade", grade);
  const response = (await route.action({
    request: new Request("http://x", { method: "POST", body: form, headers: { Cookie: cookie } }),
    params: { assignmentId: String(assignmentId) },
    context: { cspNonce: "", ip: "" },
  })) as Response;
  expect(response.status).toBe(400);
  expect(answerErrors(await response.json())).toEqual([message]);
});

it("refuses a card outside the pool and another expert's assignment", async () => {
  const form = new FormData();
  for (const [k, v] of Object.entries({ item: 999999, grade: "2", position: 1 })) form.set(k, String(v));
  const outside = await bodyOf(
    route.action({
      request: new Request("http://x", { method: "POST", body: form, headers: { Cookie: cookie } }),
      params: { assignmentId: String(assignmentId) },
      context: { cspNonce: "", ip: "" },
    }) as Promise<Response>,
  );
  expect(outside).toMatch(/^404 .*That card is not part of this assignment/);
  const [other] = await t.db.execute<{ id: number }>(
    sql`select a.id from campaign_assignments a join users u on u.id = a.expert_id where u.email <> 'expert@assay.local' limit 1`,
  );
  const foreign = await bodyOf(
    route.loader({
      request: new Request("http://x", { headers: { Cookie: cookie } }),
      params: { assignmentId: String(other.id) },
      context: { cspNonce: "", ip: "" },
    }) as Promise<Response>,
  );
  expect(foreign).toMatch(/^404 .*There is no such assignment of yours/);
});

it("refuses the task and its grades to an expert who convenes the proposal, whatever else they hold", async () => {
  await t.db.execute(sql`update users set roles = '{expert,convener}'::role[] where id = ${expertId}`);
  await t.db.execute(sql`insert into convener_assignments (user_id, proposal_id)
    select ${expertId}, proposal_id from campaign_assignments where id = ${assignmentId}`);
  const params = { assignmentId: String(assignmentId) };
  const refusal = /^403 .*You convene this proposal, so you cannot grade it/;
  const loaded = await bodyOf(
    route.loader({
      request: new Request("http://x", { headers: { Cookie: cookie } }),
      params,
      context: { cspNonce: "", ip: "" },
    }) as Promise<Response>,
  );
  expect(loaded).toMatch(refusal);
  const [before] = await t.db.execute<{ n: number }>(sql`select count(*)::int n from ratings`);
  const form = new FormData();
  for (const [k, v] of Object.entries({ item: goldItems[0], grade: "2", position: 1 }))
    form.set(k, String(v));
  const saved = await bodyOf(
    route.action({
      request: new Request("http://x", { method: "POST", body: form, headers: { Cookie: cookie } }),
      params,
      context: { cspNonce: "", ip: "" },
    }) as Promise<Response>,
  );
  expect(saved).toMatch(refusal);
  expect(await t.db.execute(sql`select count(*)::int n from ratings`)).toEqual([before]);
  await t.db.execute(sql`delete from convener_assignments where user_id = ${expertId}`);
});

it("sends a scoped assignment's pairs alone, refuses a grade of any other by its card's name, and finishes on them", async () => {
  // An assignment made by "ask for more grades" covers the chosen pairs only (here the two gold items).
  await t.db.execute(sql`update users set roles = '{expert}'::role[] where id = ${expertId}`);
  await t.db.execute(sql`insert into campaign_assignment_items (assignment_id, item_id)
    values (${assignmentId}, ${goldItems[0]}), (${assignmentId}, ${goldItems[1]})`);
  const params = { assignmentId: String(assignmentId) };
  const post = (fields: Record<string, string | number>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
    return bodyOf(
      route.action({
        request: new Request("http://x", { method: "POST", body: form, headers: { Cookie: cookie } }),
        params,
        context: { cspNonce: "", ip: "" },
      }) as Promise<Response>,
    );
  };
  try {
    const view = JSON.parse(
      await bodyOf(
        route.loader({
          request: new Request("http://x", { headers: { Cookie: cookie } }),
          params,
          context: { cspNonce: "", ip: "" },
        }) as Promise<Response>,
      ),
    );
    expect(view.cards.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b)).toEqual(
      [...goldItems].sort((a, b) => a - b),
    );
    const [outside] = await t.db.execute<{ id: number; alias: string }>(sql`
      select i.id, i.alias from campaign_items i join campaign_assignments a on a.campaign_id = i.campaign_id and a.proposal_id = i.proposal_id
      where a.id = ${assignmentId} and i.id not in (${goldItems[0]}, ${goldItems[1]}) order by i.id limit 1`);
    const [before] = await t.db.execute<{ n: number }>(sql`select count(*)::int n from ratings`);
    expect(await post({ intent: "grade", item: outside.id, grade: "2", position: 1 })).toBe(
      `403 {"message":"Card ${outside.alias} is not one of the pairs this assignment asks you to grade."}`,
    );
    expect(await t.db.execute(sql`select count(*)::int n from ratings`)).toEqual([before]);
    // The first test graded three cards of the pool; Finish counts only the scoped ones.
    for (const item of goldItems) await post({ intent: "grade", item, grade: "3", position: 1 });
    expect(await post({ intent: "finish" })).toBe("");
    const [{ finished }] = await t.db.execute<{ finished: boolean }>(
      sql`select finished_at is not null as finished from campaign_assignments where id = ${assignmentId}`,
    );
    expect(finished).toBe(true);
  } finally {
    await t.db.execute(sql`delete from campaign_assignment_items where assignment_id = ${assignmentId}`);
  }
});
