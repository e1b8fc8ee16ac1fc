import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createSessionCookie } from "../../test/session-cookie";
import { createUser } from "../../db/accounts/users";
import { DEMO_EXPERIMENT, seedDemo } from "../../scripts/demo/seed";
import { getExperiment } from "../../db/experiments/experiments";
import { updateAnalysisSettings } from "../../db/experiments/analysis-settings";
import type { AnyGuardrail } from "../../scripts/inputs/guardrails";
import { GuardrailsTable } from "../components/dashboards/online/guardrails-table";
import { loader as listLoader } from "./analyst.experiments._index";
import { loader as adminListLoader } from "./admin.experiments._index";
import { loader as pageLoader } from "./analyst.experiments.$key";

/**
 * A share guardrail counts as a guardrail (issue 27): an experiment whose only failing guardrail is a
 * group's share of adopted candidates carries the lists' "guardrail failing" flag and the page's notice,
 * as one whose time to finish fails does.
 */
let t: TestDatabase;
const cookies: Record<string, string> = {};
const context = { cspNonce: "", ip: "127.0.0.1" };

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "share-guardrail" });
  for (const role of ["analyst", "admin"] as const) {
    const user = await createUser(t.db, "cli", {
      email: `${role}@share.test`,
      name: role,
      roles: [role],
      password: "long-enough-1",
    });
    cookies[role] = await createSessionCookie(t.db, user.id);
  }
}, 240_000);
afterAll(() => t.drop());

async function setGuardrails(guardrails: AnyGuardrail[]) {
  const e = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  const { engine, cuped, prePeriodDays, priorMean, priorVariance } = e;
  await updateAnalysisSettings(t.db, "cli", DEMO_EXPERIMENT, {
    ...{ engine, cuped, prePeriodDays, priorMean, priorVariance: priorVariance ?? undefined },
    guardrails,
  });
}

const get = (path: string, role: string) => ({
  request: new Request(`http://localhost${path}`, { headers: { Cookie: cookies[role] } }),
  params: {},
  context,
});

async function listed(role: "analyst" | "admin") {
  const response =
    role === "analyst"
      ? await listLoader(get("/analyst/experiments", role))
      : await adminListLoader(get("/admin/experiments", role));
  const data = (await response.json()) as { experiments: { key: string; failingGuardrail: boolean }[] };
  return data.experiments.find((e) => e.key === DEMO_EXPERIMENT)!.failingGuardrail;
}

async function pageNotice() {
  const response = await pageLoader({
    ...get(`/analyst/experiments/${DEMO_EXPERIMENT}`, "analyst"),
    params: { key: DEMO_EXPERIMENT },
  });
  const data = await response.json();
  const html = renderToStaticMarkup(
    createElement(GuardrailsTable, { guardrails: data.ab!.guardrails, shares: data.composition?.guardrails }),
  );
  return { data, html };
}

it("flags on both lists and notices on the page an experiment whose only failing guardrail is a share", async () => {
  // Women are about 40% of the demo's pool; no arm's conveners adopt 60% women, so the bound fails.
  // The COI share's tolerance of 1,000% cannot fail.
  await setGuardrails([
    { metric: "coiShare", direction: "increase", tolerance: 10 },
    { metric: "share", attribute: "gender", value: "f", min: 0.6 },
  ]);
  const { data, html } = await pageNotice();
  expect(data.ab!.guardrails.map((g) => g.state)).not.toContain("failing");
  expect(data.composition!.guardrails).toMatchObject([
    { arm: "B", attribute: "gender", value: "f", min: 0.6, state: "failing" },
  ]);
  expect(html).toContain('<p class="notice">1 guardrail reading is failing');
  expect(html).toContain('aria-label="Share guardrails"');
  expect(await listed("analyst")).toBe(true);
  expect(await listed("admin")).toBe(true);
}, 240_000);

it("drops the flag and the notice when the share's bound is met", async () => {
  // No arm adopts more than 90% women: a maximum of 90% is met by the whole interval.
  await setGuardrails([{ metric: "share", attribute: "gender", value: "f", max: 0.9 }]);
  const { data, html } = await pageNotice();
  expect(data.composition!.guardrails.map((g) => g.state)).toEqual(["ok"]);
  expect(html).toContain("No guardrail is failing.");
  expect(html).not.toContain('class="notice"');
  expect(await listed("analyst")).toBe(false);
  expect(await listed("admin")).toBe(false);
}, 240_000);
