import Papa from "papaparse";
import { createSessionCookie } from "../../test/session-cookie";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../../db/accounts/users";
import { auditLog } from "../../db/schema";

/**
 * The audit page's loader and its CSV export, over 120 entries written one an hour from 2026-03-01
 * 00:00 UTC: every third by the CLI, the others by Ada; actions alternate. Entries the test's own
 * setup may add are dated today, outside the days March 1–5 that the filters below always name.
 */
let t: TestDatabase;
const cookies = { admin: "", analyst: "" };
let page: typeof import("./admin.audit");
let csv: typeof import("./admin.audit[.]csv");

const START = Date.parse("2026-03-01T00:00:00Z");
const HOUR = 3_600_000;
const ADA = "Ada <ada@test.local>";
const FORMULA = '=HYPERLINK("http://evil.example","click")';
const entries = Array.from({ length: 120 }, (_, i) => ({
  at: new Date(START + i * HOUR),
  actorLabel: i % 3 === 0 ? "cli" : ADA,
  action: i % 2 === 0 ? "campaign.launch" : "data.import",
  target: i === 7 ? FORMULA : `campaign ${i}`,
  detail: { n: i },
}));
const march = "from=2026-03-01&to=2026-03-05";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  for (const [role, name] of [
    ["admin", "Ada"],
    ["analyst", "Alan"],
  ] as const) {
    const user = await createUser(t.db, "cli", {
      email: `${name.toLowerCase()}@test.local`,
      name,
      roles: [role],
      password: "long-enough-1",
    });
    cookies[role] = await createSessionCookie(t.db, user.id);
    if (role === "admin")
      await t.db
        .insert(auditLog)
        .values(entries.map((e) => ({ ...e, actorId: e.actorLabel === ADA ? user.id : null })));
  }
  page = await import("./admin.audit");
  csv = await import("./admin.audit[.]csv");
});
afterAll(() => t.drop());

/** A loader's answer, thrown or returned, as a Response. */
async function call(
  loader: (args: never) => unknown,
  query: string,
  cookie = cookies.admin,
): Promise<Response> {
  const request = new Request(`http://x/admin/audit?${query}`, { headers: cookie ? { Cookie: cookie } : {} });
  try {
    return (await loader({ request, params: {}, context: { cspNonce: "", ip: "" } } as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
async function list(query: string) {
  const response = await call(page.loader, query);
  return { status: response.status, ...(await response.json()) } as {
    status: number;
    error: string | null;
    total: number;
    page: number;
    rows: { at: string; actor: string; action: string; target: string; detail: { n: number } }[];
    choices: { actors: string[]; actions: string[] };
  };
}
const ns = (rows: { detail: { n: number } }[]) => rows.map((r) => r.detail.n);
/** The synthetic entries' numbers a filter should keep, newest first. */
const expected = (keep: (e: (typeof entries)[number]) => boolean) =>
  entries.flatMap((e, i) => (keep(e) ? [i] : [])).reverse();

describe("/admin/audit", () => {
  it("shows entries newest first, 50 a page, with their count, and keeps a page past the last on the last", async () => {
    const first = await list(march);
    expect(first).toMatchObject({ status: 200, error: null, total: 120, page: 1 });
    expect(ns(first.rows)).toEqual(expected(() => true).slice(0, 50));
    const third = await list(`${march}&page=3`);
    expect(ns(third.rows)).toEqual(expected(() => true).slice(100));
    expect((await list(`${march}&page=99`)).page).toBe(3);
    expect(first.choices.actions).toEqual(expect.arrayContaining(["campaign.launch", "data.import"]));
    expect(first.choices.actors).toEqual(expect.arrayContaining([ADA, "cli"]));
  });

  it("filters by who, what and when (whole UTC days, both ends included)", async () => {
    const who = await list(`${march}&who=cli`);
    expect(who.total).toBe(40);
    expect(ns(who.rows)).toEqual(expected((e) => e.actorLabel === "cli"));
    const what = await list(`${march}&what=data.import&who=${encodeURIComponent(ADA)}`);
    expect(ns(what.rows)).toEqual(
      expected((e) => e.action === "data.import" && e.actorLabel === ADA).slice(0, 50),
    );
    const day = await list("from=2026-03-02&to=2026-03-02");
    expect(ns(day.rows)).toEqual(expected((e) => e.at.toISOString().startsWith("2026-03-02")));
    expect(day.total).toBe(24);
    const blanks = await list(`${march}&who=&what=&page=`);
    expect(blanks.total).toBe(120);
  });

  it("says when nothing matches", async () => {
    expect(await list("from=2020-01-01&to=2020-01-31")).toMatchObject({
      status: 200,
      total: 0,
      rows: [],
      page: 1,
    });
  });

  it.each([
    ["from=2026-02-31", "from is not a date in the calendar"],
    ["to=yesterday", "to must be a date such as 2026-11-22"],
    ["from=2026-03-05&to=2026-03-01", "from must be on or before to"],
    ["what=DROP%20TABLE", "what must be an action name such as campaign.launch"],
    ["page=0", "page must be a whole number from 1"],
    ["page=two", "page must be a whole number from 1"],
    [`who=${"x".repeat(400)}`, "who is longer than 320 characters"],
  ])("answers %s with a 400 and a sentence naming the bad value", async (query, message) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect(answer.error).toBe(`The filters were not understood: ${message}.`);
    expect(answer.rows).toEqual([]);
    const exported = await call(csv.loader, query);
    expect(exported.status).toBe(400);
    expect(await exported.text()).toBe(`The filters were not understood: ${message}.`);
  });
});

describe("/admin/audit.csv", () => {
  it("exports every filtered entry, newest first, formula-safe", async () => {
    const response = await call(csv.loader, `${march}&what=data.import`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="assay-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { data } = Papa.parse<string[]>((await response.text()).trim());
    expect(data[0]).toEqual(["id", "at", "actor", "action", "target", "detail"]);
    const rows = data.slice(1);
    expect(rows.map((r) => JSON.parse(r[5]).n)).toEqual(expected((e) => e.action === "data.import"));
    const formula = rows.find((r) => JSON.parse(r[5]).n === 7)!;
    expect(formula[4]).toBe(`'${FORMULA}`);
    expect(formula.slice(1, 4)).toEqual(["2026-03-01T07:00:00.000Z", ADA, "data.import"]);
  });

  it("is for admins only: an analyst gets a 403, a signed-out visitor the sign-in page", async () => {
    const analyst = await call(csv.loader, march, cookies.analyst);
    expect(analyst.status).toBe(403);
    const signedOut = await call(csv.loader, march, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});
