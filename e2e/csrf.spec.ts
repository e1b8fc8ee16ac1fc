import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
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

const EXPORTS_ACTION = /export (async function|function|const|let) action\b|export \{[^}]*\baction\b/;

/** Every route file that exports an action, with the URL it answers and the role whose form it is. */
function actionRoutes(samples: Record<string, string>): ActionRoute[] {
  const dir = path.resolve("app/routes");
  return fs
    .readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => EXPORTS_ACTION.test(fs.readFileSync(path.join(dir, file), "utf8")))
    .map((file) => {
      const name = file.replace(/\.tsx?$/, "");
      const segments = name.split(".").filter((s) => s !== "_index" && !/^_[^_]/.test(s));
      const value = (segment: string) => encodeURIComponent(samples[segment.slice(1)] ?? "1");
      const url = "/" + segments.map((s) => (s.startsWith("$") ? value(s) : s.replace(/_$/, ""))).join("/");
      const prefix = name.split(".")[0];
      // The sign-in form is a signed-out visitor's; sign-out and the API take a signed-in user's cookie.
      const role = prefix in demoLogin ? (prefix as Role) : name === "login" ? "visitor" : "admin";
      return { id: `routes/${name}`, path: name.endsWith("_index") ? `${url}?index` : url, role };
    });
}

/** The URL of the route's action as Remix's own form submission fetches it. */
const dataUrl = (route: ActionRoute) =>
  `${route.path}${route.path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route.id)}`;
const EVIL = { Origin: "http://evil.example" };
const same = () => ({ Origin: baseUrl().origin });

function post(
  url: string,
  own: Session,
  headers: Record<string, string>,
  fields: Record<string, string>,
): Promise<Reply> {
  return send("POST", url, { Cookie: own.cookie, "Content-Type": FORM, ...headers }, formBody(fields));
}

/** Row count and content hash of every table, but those the server rewrites on its own schedule. */
async function fingerprint(sql: postgres.Sql): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }[]>`
    select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    // Recomputed every 15 s from the events (db/experiments/event-session-refresher.ts); the events themselves are compared.
    if (name === "event_sessions" || name === "event_sessions_dirty") continue;
    // A page view may refresh a session's expiry: its rows are counted, not hashed.
    const hash =
      name === "sessions" ? sql`''` : sql`md5(coalesce(string_agg(t::text, '|' order by t::text), ''))`;
    const [row] = await sql<
      { n: number; h: string }[]
    >`select count(*)::int as n, ${hash} as h from ${sql(name)} t`;
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
  const [{ expert }] = await sql<
    { expert: number }[]
  >`select id as expert from users where email = ${demoLogin.expert}`;
  const [{ campaign }] = await sql<
    { campaign: number }[]
  >`select id as campaign from campaigns order by id limit 1`;
  const [{ proposal }] = await sql<{ proposal: string }[]>`
    select p.external_id as proposal from convener_assignments c join proposals p on p.id = c.proposal_id
    join users u on u.id = c.user_id where u.email = ${demoLogin.convener} order by 1 limit 1`;
  routes = actionRoutes({
    campaignId: String(campaign),
    key: experiment,
    userId: String(expert),
    proposalId: proposal,
    assignmentId: String(rating.assignment),
  });
});
test.afterAll(() => sql?.end());

/** What a forged form would ask of each route: the writes the report found, or a plausible one. */
function attack(route: ActionRoute): Record<string, string> {
  const forged: Record<string, Record<string, string>> = {
    "routes/admin.users._index": {
      name: "Mallory",
      email: "mallory@evil.example",
      roles: "admin",
      password: "mallory-pass-1",
    },
    "routes/admin.experiments.$key": { intent: "createKey" },
    "routes/expert.assignments.$assignmentId": {
      item: String(rating.item),
      grade: rating.grade === 1 ? "4" : "1",
      position: "1",
    },
    "routes/admin.users.$userId": { intent: "deactivate" },
    "routes/admin.campaigns.$campaignId": { intent: "close" },
    "routes/convener.proposals.$proposalId._index": { intent: "finish" },
    "routes/analyst.snapshots._index": { kind: "offline", B: "100", seed: "forged" },
    "routes/login": { email: demoLogin.admin, password: "assay-demo" },
  };
  return forged[route.id] ?? { intent: "forged" };
}

interface Forgery {
  name: string;
  headers: () => Record<string, string>;
  /** The token sent, if any, given the session whose cookie is sent. */
  token: (own: Session) => string | null;
  refusal: string;
}
const forgeries: Forgery[] = [
  { name: "another site's Origin", headers: () => EVIL, token: (own) => own.token, refusal: CROSS_SITE },
  {
    name: "another site's Referer",
    headers: () => ({ Referer: "http://evil.example/page" }),
    token: (own) => own.token,
    refusal: CROSS_SITE,
  },
  { name: "no Origin and no Referer", headers: () => ({}), token: (own) => own.token, refusal: CROSS_SITE },
  { name: "no token", headers: same, token: () => null, refusal: EXPIRED },
  { name: "another session's token", headers: same, token: (own) => otherThan(own).token, refusal: EXPIRED },
];
const otherThan = (own: Session) => (own === sessions.visitor ? sessions.admin : sessions.visitor);

test("every action route refuses a forged form with a 403 sentence and writes nothing", async () => {
  const known = [
    "routes/admin.users._index",
    "routes/expert.assignments.$assignmentId",
    "routes/login",
    "routes/logout",
    "routes/api.events",
  ];
  expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(known));
  expect(routes.length).toBeGreaterThanOrEqual(13);
  const before = await fingerprint(sql);
  const wrong: string[] = [];
  for (const route of routes) {
    const own = sessions[route.role];
    for (const url of [route.path, dataUrl(route)]) {
      for (const forgery of forgeries) {
        const token = forgery.token(own);
        const reply = await post(url, own, forgery.headers(), {
          ...attack(route),
          ...(token === null ? {} : { csrf: token }),
        });
        if (reply.status !== 403 || !reply.body.includes(forgery.refusal)) {
          wrong.push(`${url} with ${forgery.name}: ${reply.status} ${reply.body.slice(0, 120)}`);
        }
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
      const reply = await post(url, own, same(), { csrf: own.token });
      expect(reply.status, `${url}: ${reply.body.slice(0, 200)}`).not.toBe(403);
    }
  }
});

test("the reported forgeries (an admin, an API key, a grade) are refused cross-site, done from Assay's own page", async () => {
  const { admin, expert } = sessions;
  const url = (id: string) => dataUrl(routes.find((r) => r.id === id)!);

  const analyst = {
    name: "Ana Lyst",
    email: "csrf-analyst@assay.test",
    roles: "analyst",
    password: "analyst-password-1",
    csrf: admin.token,
  };
  expect((await post(url("routes/admin.users._index"), admin, EVIL, analyst)).status).toBe(403);
  expect(await sql`select 1 from users where email = ${analyst.email}`).toHaveLength(0);
  expect((await post(url("routes/admin.users._index"), admin, same(), analyst)).status).toBe(200);
  expect(await sql`select roles::text[] as roles from users where email = ${analyst.email}`).toEqual([
    { roles: ["analyst"] },
  ]);

  // X-Forwarded-Host naming the other site changes nothing: no proxy is trusted here.
  const keysBefore = (await sql`select id from experiment_api_keys`).length;
  const createKey = { intent: "createKey", csrf: admin.token };
  expect(
    (
      await post(
        url("routes/admin.experiments.$key"),
        admin,
        { ...EVIL, "X-Forwarded-Host": "evil.example" },
        createKey,
      )
    ).status,
  ).toBe(403);
  expect(await sql`select id from experiment_api_keys`).toHaveLength(keysBefore);
  expect(
    JSON.parse((await post(url("routes/admin.experiments.$key"), admin, same(), createKey)).body).newKey,
  ).toMatch(/\S{20,}/);

  const grade = {
    item: String(rating.item),
    grade: String(rating.grade),
    position: String(rating.position),
    csrf: expert.token,
  };
  const grading = url("routes/expert.assignments.$assignmentId");
  expect((await post(grading, expert, EVIL, { ...grade, grade: "cant", rationale: "forged" })).status).toBe(
    403,
  );
  expect((await post(grading, expert, same(), { ...grade, rationale: rating.rationale })).body).toBe(
    '{"intent":"grade","result":{"initialValue":null},"done":null}',
  );
});

test("an API call with a key and no cookie needs no token or origin; with a cookie it does", async () => {
  const { admin } = sessions;
  const keys = dataUrl(routes.find((r) => r.id === "routes/admin.experiments.$key")!);
  const key = JSON.parse((await post(keys, admin, same(), { intent: "createKey", csrf: admin.token })).body)
    .newKey as string;
  const api = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const none = JSON.stringify({ events: [] });
  expect((await send("POST", "/api/events", api, none)).status).toBe(200);
  expect((await send("POST", "/api/events", { ...api, ...EVIL }, none)).status).toBe(200);
  expect((await send("POST", "/api/events", { ...api, Cookie: admin.cookie }, none)).status).toBe(403);
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
