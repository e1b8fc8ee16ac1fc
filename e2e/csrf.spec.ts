import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/connect";
import { baseUrl, FORM, formBody, send, session, visitor, type Reply } from "./http";
import { demoLogin, expect, test } from "./test";

/**
 * Trust, item 1: no form can be sent from another site. Every route with an action (found in the
 * route files, so a new one is covered) refuses a forged request with a 403 sentence and writes
 * nothing: from another Origin, another Referer, neither, without the token, or with another
 * session's token; with and without Remix's `_data`. The same request from a page of Assay passes.
 */
const CROSS_SITE = "This form was sent from another site, so it was refused and nothing changed.";
const EXPIRED = "This form has expired; reload the page and try again.";
type Role = keyof typeof demoLogin;
type Session = { cookie: string; token: string };

interface ActionRoute {
  id: string;
  path: string;
  role: Role | "visitor";
}

/** Every route file that exports an action, with the URL it answers and the role whose form it is. */
function actionRoutes(samples: Record<string, string>): ActionRoute[] {
  const dir = path.resolve("app/routes");
  return fs
    .readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => /export (async function|function|const|let) action\b|export \{[^}]*\baction\b/.test(fs.readFileSync(path.join(dir, file), "utf8")))
    .map((file) => {
      const name = file.replace(/\.tsx?$/, "");
      const segments = name.split(".").filter((s) => s !== "_index" && !/^_[^_]/.test(s));
      const url = "/" + segments.map((s) => (s.startsWith("$") ? encodeURIComponent(samples[s.slice(1)] ?? "1") : s.replace(/_$/, ""))).join("/");
      const prefix = name.split(".")[0];
      // The sign-in form is a signed-out visitor's; sign-out and the API take a signed-in user's cookie.
      const role = prefix in demoLogin ? (prefix as Role) : name === "login" ? "visitor" : "admin";
      return { id: `routes/${name}`, path: name.endsWith("_index") ? `${url}?index` : url, role };
    });
}

const dataUrl = (route: ActionRoute) => `${route.path}${route.path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route.id)}`;

/** Row count and content hash of every table, but those the server rewrites on its own schedule. */
async function fingerprint(sql: postgres.Sql): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    // Recomputed every 15 s from the events (db/session-refresher.ts); the events themselves are compared.
    if (name === "event_sessions" || name === "event_sessions_dirty") continue;
    // A page view may refresh a session's expiry: its rows are counted, not hashed.
    const hash = name === "sessions" ? sql`''` : sql`md5(coalesce(string_agg(t::text, '|' order by t::text), ''))`;
    const [row] = await sql<{ n: number; h: string }[]>`select count(*)::int as n, ${hash} as h from ${sql(name)} t`;
    result[name] = `${row.n} ${row.h}`;
  }
  return result;
}

let sql: postgres.Sql;
const sessions = {} as Record<Role | "visitor", Session>;
let routes: ActionRoute[] = [];
let rating: { assignment: number; item: number; grade: number; rationale: string; position: number };
let experiment = "";

test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
  for (const role of Object.keys(demoLogin) as Role[]) sessions[role] = await session(demoLogin[role]);
  sessions.visitor = await visitor();
  [{ key: experiment }] = await sql<{ key: string }[]>`select key from experiments order by id limit 1`;
  [rating] = await sql<(typeof rating)[]>`
    select r.assignment_id as assignment, r.item_id as item, r.grade, r.rationale, r.position
    from ratings r join campaign_assignments a on a.id = r.assignment_id join users u on u.id = a.expert_id
    where u.email = ${demoLogin.expert} and r.grade is not null order by r.assignment_id, r.item_id limit 1`;
  const [{ expert }] = await sql<{ expert: number }[]>`select id as expert from users where email = ${demoLogin.expert}`;
  const [{ campaign }] = await sql<{ campaign: number }[]>`select id as campaign from campaigns order by id limit 1`;
  const [{ proposal }] = await sql<{ proposal: string }[]>`
    select p.external_id as proposal from convener_assignments c join proposals p on p.id = c.proposal_id
    join users u on u.id = c.user_id where u.email = ${demoLogin.convener} order by 1 limit 1`;
  const samples = { campaignId: String(campaign), key: experiment, userId: String(expert), proposalId: proposal, assignmentId: String(rating.assignment) };
  routes = actionRoutes(samples);
});
test.afterAll(() => sql?.end());

/** What a forged form would ask of each route: the writes the report found, or a plausible one. */
function attack(route: ActionRoute): Record<string, string> {
  const forged: Record<string, Record<string, string>> = {
    "routes/admin.users._index": { name: "Mallory", email: "mallory@evil.example", role: "admin", password: "mallory-password-1" },
    "routes/admin.experiments.$key": { intent: "createKey" },
    "routes/expert.assignments.$assignmentId": { item: String(rating.item), grade: rating.grade === 1 ? "4" : "1", rationale: "forged", position: "1" },
    "routes/admin.users.$userId": { intent: "deactivate" },
    "routes/admin.campaigns.$campaignId": { intent: "close" },
    "routes/convener.proposals.$proposalId._index": { intent: "finish" },
    "routes/analyst.snapshots._index": { kind: "offline", B: "100", seed: "forged" },
    "routes/login": { email: demoLogin.admin, password: "assay-demo" },
  };
  return forged[route.id] ?? { intent: "forged" };
}

const forgeries: { name: string; headers: (own: Session) => Record<string, string>; token: (own: Session) => string | null; refusal: string }[] = [
  { name: "another site's Origin", headers: () => ({ Origin: "http://evil.example" }), token: (own) => own.token, refusal: CROSS_SITE },
  { name: "another site's Referer", headers: () => ({ Referer: "http://evil.example/page" }), token: (own) => own.token, refusal: CROSS_SITE },
  { name: "no Origin and no Referer", headers: () => ({}), token: (own) => own.token, refusal: CROSS_SITE },
  { name: "no token", headers: () => ({ Origin: baseUrl().origin }), token: () => null, refusal: EXPIRED },
  {
    name: "another session's token",
    headers: () => ({ Origin: baseUrl().origin }),
    token: (own) => (own === sessions.visitor ? sessions.admin : sessions.visitor).token,
    refusal: EXPIRED,
  },
];

function submit(route: ActionRoute, url: string, own: Session, headers: Record<string, string>, token: string | null): Promise<Reply> {
  const fields = { ...attack(route), ...(token === null ? {} : { csrf: token }) };
  return send("POST", url, { Cookie: own.cookie, "Content-Type": FORM, ...headers }, formBody(fields));
}

test("every action route refuses a forged form with a 403 sentence and writes nothing", async () => {
  expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(["routes/admin.users._index", "routes/login", "routes/logout", "routes/api.events"]));
  expect(routes.length).toBeGreaterThanOrEqual(13);
  const before = await fingerprint(sql);
  const wrong: string[] = [];
  for (const route of routes) {
    const own = sessions[route.role];
    for (const url of [route.path, dataUrl(route)]) {
      for (const forgery of forgeries) {
        const reply = await submit(route, url, own, forgery.headers(own), forgery.token(own));
        if (reply.status !== 403 || !reply.body.includes(forgery.refusal)) wrong.push(`${url} with ${forgery.name}: ${reply.status} ${reply.body.slice(0, 120)}`);
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(await fingerprint(sql)).toEqual(before);
});

test("the same forms from a page of Assay, with the session's token, are not refused", async () => {
  const throwaway = await session(demoLogin.admin);
  for (const route of routes) {
    // Sign-out ends the session it is sent with: a session of its own keeps the others usable.
    const own = route.id === "routes/logout" ? throwaway : sessions[route.role];
    for (const url of [route.path, dataUrl(route)]) {
      const reply = await send("POST", url, { Cookie: own.cookie, Origin: baseUrl().origin, "Content-Type": FORM }, formBody({ csrf: own.token }));
      expect(reply.status, `${url}: ${reply.body.slice(0, 200)}`).not.toBe(403);
    }
  }
});

test("the reported forgeries (an admin, an API key, a grade) are refused cross-site and done from Assay's own page", async () => {
  const admin = sessions.admin;
  const same = { Origin: baseUrl().origin };
  const newUser = { name: "Ana Lyst", email: "csrf-analyst@assay.test", role: "analyst", password: "analyst-password-1" };
  const users = routes.find((r) => r.id === "routes/admin.users._index")!;
  const keys = routes.find((r) => r.id === "routes/admin.experiments.$key")!;
  const grading = routes.find((r) => r.id === "routes/expert.assignments.$assignmentId")!;
  const post = (url: string, own: Session, headers: Record<string, string>, fields: Record<string, string>) =>
    send("POST", url, { Cookie: own.cookie, "Content-Type": FORM, ...headers }, formBody(fields));

  const forgedUser = await post(dataUrl(users), admin, { Origin: "http://evil.example" }, { ...newUser, csrf: admin.token });
  expect(forgedUser.status).toBe(403);
  expect(await sql`select 1 from users where email = ${newUser.email}`).toHaveLength(0);
  expect((await post(dataUrl(users), admin, same, { ...newUser, csrf: admin.token })).status).toBe(200);
  expect(await sql`select role from users where email = ${newUser.email}`).toEqual([{ role: "analyst" }]);

  const keysBefore = (await sql`select id from experiment_api_keys`).length;
  expect((await post(dataUrl(keys), admin, { "X-Forwarded-Host": "evil.example", Origin: "http://evil.example" }, { intent: "createKey", csrf: admin.token })).status).toBe(403);
  expect(await sql`select id from experiment_api_keys`).toHaveLength(keysBefore);
  const created = await post(dataUrl(keys), admin, same, { intent: "createKey", csrf: admin.token });
  expect(JSON.parse(created.body).newKey).toMatch(/\S{20,}/);

  const expert = sessions.expert;
  const grade = { item: String(rating.item), grade: String(rating.grade), rationale: rating.rationale, position: String(rating.position) };
  expect((await post(dataUrl(grading), expert, { Origin: "http://evil.example" }, { ...grade, grade: "cant", csrf: expert.token })).status).toBe(403);
  expect((await post(dataUrl(grading), expert, same, { ...grade, csrf: expert.token })).body).toBe('{"ok":true,"error":null}');
});

test("an API call with a key and no cookie needs no token or origin; with a cookie it does", async () => {
  const admin = sessions.admin;
  const created = await send("POST", `/admin/experiments/${experiment}?_data=${encodeURIComponent("routes/admin.experiments.$key")}`, {
    Cookie: admin.cookie,
    Origin: baseUrl().origin,
    "Content-Type": FORM,
  }, formBody({ intent: "createKey", csrf: admin.token }));
  const key = JSON.parse(created.body).newKey as string;
  const api = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  expect((await send("POST", "/api/events", api, JSON.stringify({ events: [] }))).status).toBe(200);
  expect((await send("POST", "/api/events", { ...api, Origin: "http://evil.example" }, JSON.stringify({ events: [] }))).status).toBe(200);
  expect((await send("POST", "/api/events", { ...api, Cookie: admin.cookie }, JSON.stringify({ events: [] }))).status).toBe(403);
});

test("a page whose session changed says the form expired", async ({ page, context }) => {
  await page.goto("/login");
  await context.clearCookies();
  await page.getByLabel("Email").fill(demoLogin.admin);
  await page.getByLabel("Password").fill("assay-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText(EXPIRED);
  await expect(page).toHaveURL(/\/login/);
});
