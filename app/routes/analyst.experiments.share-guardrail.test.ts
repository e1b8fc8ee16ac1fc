import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { TestDatabase } from "../../test/database";
import { demoWithUsers, routeArgs } from "../../test/demo-routes";
import { DEMO_EXPERIMENT, DEMO_SHARE_GUARDRAIL } from "../../scripts/demo/seed";
import { runAssay } from "../../test/run-cli";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { compositionResult } from "../../db/results/online-composition";
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
let cookies: Record<string, string>;

beforeAll(async () => {
  ({ t, cookies } = await demoWithUsers("share-guardrail", ["analyst", "admin"], {
    proposals: 24,
    candidates: 300,
  }));
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

const get = (path: string, role: string) => routeArgs(path, cookies[role]);

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
  expect(html).toContain('<p class="notice error">1 guardrail reading is failing');
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
  expect(html).not.toContain('class="notice');
  expect(await listed("analyst")).toBe(false);
  expect(await listed("admin")).toBe(false);
}, 240_000);

it("reads the share guardrail from files with `assay online`, in the app's states and intervals", async () => {
  await setGuardrails([DEMO_SHARE_GUARDRAIL]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-share-"));
  const events = await t.db.execute<Record<string, string | string[] | null>>(sql`
    select e.event_id as "eventId", e.type, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
      x.key as experiment, e.arm, e.unit as "unitId", e.session_id as "sessionId", e.proposal_id as "proposalId",
      e.candidate_id as "candidateId", e.items
    from events e join experiments x on x.id = e.experiment_id where x.key = ${DEMO_EXPERIMENT} order by e.at, e.event_id`);
  const strip = (e: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null));
  fs.writeFileSync(path.join(dir, "events.jsonl"), events.map((e) => JSON.stringify(strip(e))).join("\n"));
  const attributes = await t.db.execute<{ candidate: string; attribute: string; value: string }>(sql`
    select c.external_id as candidate, a.attribute, a.value
    from candidate_attributes a join candidates c on c.id = a.candidate_id order by 1, 2`);
  fs.writeFileSync(
    path.join(dir, "attributes.csv"),
    ["candidate,attribute,value", ...attributes.map((a) => `${a.candidate},${a.attribute},${a.value}`)].join(
      "\n",
    ),
  );
  const run = await runAssay([
    ...[
      "online",
      "--events",
      path.join(dir, "events.jsonl"),
      "--attributes",
      path.join(dir, "attributes.csv"),
    ],
    ...[
      "--guardrail",
      "share:gender=f:min:35%",
      "--control",
      "A",
      "--bootstrap",
      "200",
      "--seed",
      "s",
      "--json",
    ],
  ]);
  expect(run.code, run.stderr).toBe(0);
  const fromFiles = JSON.parse(run.stdout).shareGuardrails;
  const experiment = (await getExperiment(t.db, DEMO_EXPERIMENT))!;
  const app = await compositionResult(t.db, experiment, { B: 200, seed: "s" }, runInProcess);
  expect(app!.guardrails).toHaveLength(1);
  expect(fromFiles).toEqual(JSON.parse(JSON.stringify(app!.guardrails)));
  expect(fromFiles[0].share.ci.lower).toBeLessThan(fromFiles[0].share.value);
}, 240_000);
