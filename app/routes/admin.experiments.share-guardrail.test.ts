import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { seedDemo } from "../../scripts/demo/seed";
import { answerErrors } from "../forms/forms";

/** The admin's "How the result is read" form with a share guardrail (issue 27): bad ones get a 400 naming them. */
let t: TestDatabase;
let cookie = "";
let route: typeof import("./admin.experiments.$key");

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 12, candidates: 120, seed: "share-guardrail" });
  const [admin] = await t.db.execute<{ id: number }>(
    sql`select id from users where email = 'admin@assay.local'`,
  );
  cookie = await createSessionCookie(t.db, admin.id);
  route = await import("./admin.experiments.$key");
}, 180_000);
afterAll(() => t.drop());

async function save(guardrails: string) {
  const body = new URLSearchParams({
    intent: "analysis",
    engine: "frequentist",
    prePeriodDays: "28",
    priorMean: "0",
    guardrails,
  });
  const request = new Request("http://localhost/admin/experiments/reviewer-ranker-v2", {
    method: "POST",
    body,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const response = (await route.action({
    request,
    params: { key: "reviewer-ranker-v2" },
    context: { cspNonce: "", ip: "127.0.0.1" },
  })) as Response;
  return { status: response.status, body: await response.json() };
}

const stored = async () =>
  (
    await t.db.execute<{ g: unknown }>(
      sql`select guardrails as g from experiments where key = 'reviewer-ranker-v2'`,
    )
  )[0].g;

it("stores a share guardrail on a known attribute", async () => {
  const { status } = await save("share:gender=f:min:35%");
  expect(status).toBe(200);
  expect(await stored()).toEqual([{ metric: "share", attribute: "gender", value: "f", min: 0.35 }]);
});

it.each([
  [
    "share:genre=f:min:35%",
    /^guardrails: the attribute "genre" of "share:genre=f" is unknown; known: career_stage, country, gender\.$/,
  ],
  ["share:gender=f:min:135%", /^guardrail share "135%" must be from 0 to 1 \(e\.g\. 0\.35 or 35%\)$/],
])("refuses %s with a 400 naming it, and stores nothing", async (line, message) => {
  const before = await stored();
  const { status, body } = await save(line);
  expect(status).toBe(400);
  expect(answerErrors(body).join(" ")).toMatch(message);
  expect(await stored()).toEqual(before);
});
