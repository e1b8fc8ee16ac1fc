import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../../db/accounts/users";
import { listSnapshots } from "../../db/snapshots/snapshots";
import { createSessionCookie } from "../../test/session-cookie";
import { answerErrors } from "../forms/forms";

/** `?B=` and the snapshot form's B: above 20,000 or not a whole number is a 400 with a sentence, and nothing runs. */
let t: TestDatabase;
let cookie = "";

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  const user = await createUser(t.db, "cli", {
    email: "analyst@test.local",
    name: "Analyst",
    roles: ["analyst"],
    password: "long-enough-1",
  });
  cookie = await createSessionCookie(t.db, user.id);
});
afterAll(() => t.drop());

const context = { cspNonce: "", ip: "127.0.0.1" };

async function offlinePage(query: string) {
  const { loader } = await import("../routes/analyst._index");
  try {
    return await loader({
      request: new Request(`http://localhost/analyst${query}`, { headers: { Cookie: cookie } }),
      params: {},
      context,
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("B, the bootstrap's resamples", () => {
  it("is refused on the offline report above 20,000 and when it is not a whole number", async () => {
    for (const [query, message] of [
      ["?B=20001", "Use at most 20,000 resamples (B)."],
      ["?B=1000000000", "Use at most 20,000 resamples (B)."],
      ["?B=lots", "Resamples (B) must be a number."],
      ["?B=150.5", "Resamples (B) must be a whole number."],
      ["?B=10", "Use at least 100 resamples (B)."],
    ]) {
      const response = await offlinePage(query);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ message });
    }
  });

  it("is taken up to 20,000 and defaults to 1,000", async () => {
    // No lists yet: the page answers without a report, with the settings it read.
    expect(await (await offlinePage("?B=20000&seed=s")).json()).toEqual({
      report: null,
      fairness: null,
      computedAt: expect.any(String),
      canRecompute: true,
      params: { B: 20000, seed: "s" },
      view: { excludeConflicts: false, stratify: null, from: null, to: null, maxCommittee: null },
    });
    expect(await (await offlinePage("")).json()).toEqual({
      report: null,
      fairness: null,
      computedAt: expect.any(String),
      canRecompute: true,
      params: { B: 1000, seed: "assay" },
      view: { excludeConflicts: false, stratify: null, from: null, to: null, maxCommittee: null },
    });
  });

  it("is refused by the snapshot form above 20,000, and no snapshot is made", async () => {
    const { action } = await import("../routes/analyst.snapshots._index");
    const body = new URLSearchParams({ kind: "offline", B: "25000", seed: "assay" });
    const request = new Request("http://localhost/analyst/snapshots", {
      method: "POST",
      headers: { Cookie: cookie },
      body,
    });
    const response = await action({ request, params: {}, context });
    expect(response.status).toBe(400);
    expect(answerErrors(await response.json())).toEqual(["Use at most 20,000 resamples (B)."]);
    expect(await listSnapshots(t.db)).toEqual([]);
  });
});
