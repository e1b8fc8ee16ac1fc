/// <reference types="vite/client" />
import fs from "node:fs";
import path from "node:path";
import type { LoaderFunction, ActionFunction } from "@remix-run/node";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../../db/accounts/users";
import { importFile } from "../../db/import";
import { createApiKey, createExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";
import type { Role } from "../../scripts/inputs/roles";
import { createSessionCookie } from "../../test/session-cookie";
import { answerErrors } from "../forms/forms";

/**
 * Nonsense in a route's id or query parameters is a 4xx with a sentence, never a 500: every id-taking
 * route and every query parameter a loader reads, each with a corpus of bad values.
 */
const routes = import.meta.glob<{ loader?: LoaderFunction; action?: ActionFunction }>(
  ["./*.{ts,tsx}", "!./*.test.ts"],
  { eager: true },
);
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");

let t: TestDatabase;
const cookies = {} as Record<Role, string>;
let apiKey = "";

/** A signed-in user's Cookie header; the one place that knows how sessions are made. */
async function signedInCookie(userId: number): Promise<string> {
  return createSessionCookie(t.db, userId);
}

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.SESSION_SECRET = "a-test-secret-that-is-long-enough-to-sign";
  for (const role of ["admin", "expert"] as const) {
    const user = await createUser(t.db, "cli", {
      email: `${role}@test.local`,
      name: role,
      roles: [role],
      password: "long-enough-1",
    });
    cookies[role] = await signedInCookie(user.id);
  }
  for (const entity of ["subjects", "proposals", "candidates", "systems"] as const)
    await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv");
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "api",
      name: "API",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "api", "running");
  apiKey = (await createApiKey(t.db, "cli", "api")).key;
});
afterAll(() => t.drop());

/** What a loader or action answers: a Response's status and its sentence (`message` on pages, `error` in the API). */
async function answer(
  file: string,
  kind: "loader" | "action",
  url: string,
  params: Record<string, string>,
  headers: Record<string, string>,
) {
  const fn = routes[file][kind]!;
  const request = new Request(`http://localhost${url}`, {
    method: kind === "loader" ? "GET" : "POST",
    headers,
    body: kind === "action" ? new FormData() : undefined,
  });
  let result: unknown;
  try {
    result = await fn({ request, params, context: { cspNonce: "", ip: "127.0.0.1" } });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown; // an exception is what becomes a 500
    result = thrown;
  }
  const response = result as Response;
  const body = response.headers.get("Content-Type")?.includes("json")
    ? ((await response.json()) as { message?: string; error?: string })
    : {};
  return { status: response.status, sentence: body.message ?? body.error ?? "" };
}

const badIds = ["99999999999", "2147483648", "0", "-1", "abc", "1e3", "1.5", " 1", "0x10", "9".repeat(400)];
const admin = () => ({ Cookie: cookies.admin });

const idRoutes: [string, "loader" | "action", string, () => Record<string, string>][] = [
  ["./admin.users.$userId.tsx", "loader", "userId", admin],
  ["./admin.users.$userId.tsx", "action", "userId", admin],
  ["./admin.campaigns.$campaignId.tsx", "loader", "campaignId", admin],
  ["./admin.campaigns.$campaignId.tsx", "action", "campaignId", admin],
  ["./analyst.campaigns.$campaignId.tsx", "loader", "campaignId", admin],
  ["./analyst.snapshots.$id.tsx", "loader", "id", admin],
  ["./api.campaigns.$campaignId.export.ts", "loader", "campaignId", admin],
  ["./expert.assignments.$assignmentId.tsx", "loader", "assignmentId", () => ({ Cookie: cookies.expert })],
  ["./expert.assignments.$assignmentId.tsx", "action", "assignmentId", () => ({ Cookie: cookies.expert })],
];

describe.each(idRoutes)("%s %s with a bad :%s", (file, kind, param, headers) => {
  it.each(badIds)("%s is a 404 with a sentence", async (id) => {
    const { status, sentence } = await answer(file, kind, "/x", { [param]: id }, headers());
    expect(status).toBe(404);
    expect(sentence).toMatch(/^There is no \w+ with id .+\.$/);
  });
});

it.each(badIds)("GET /api/snapshots/%s.csv is a 404 with a sentence", async (id) => {
  const { status, sentence } = await answer(
    "./api.snapshots.$file.ts",
    "loader",
    "/x",
    { file: `${id}.csv` },
    admin(),
  );
  expect(status).toBe(404);
  expect(sentence).toMatch(/\.$/);
});

const listing = [
  "page=-1",
  "page=0",
  "page=1e99",
  "page=abc",
  "page=1.5",
  "size=7",
  "size=abc",
  "dir=up",
  "sort=nope",
  `q=${"x".repeat(201)}`,
  "after=not-a-cursor",
  `before=${Buffer.from("[1,2]").toString("base64url")}`,
];
const queryCases: [string, string, Record<string, string>, () => Record<string, string>, string[]][] = [
  ["./admin.proposals._index.tsx", "/admin/proposals", {}, admin, listing],
  ["./admin.candidates.tsx", "/admin/candidates", {}, admin, listing],
  ["./admin.lists.tsx", "/admin/lists", {}, admin, listing],
  ["./admin.users._index.tsx", "/admin/users", {}, admin, listing],
  ["./admin.audit.tsx", "/admin/audit", {}, admin, ["after=not-a-cursor", "page=0"]],
  [
    "./admin.proposals.$proposalId.tsx",
    "/admin/proposals/P-100",
    { proposalId: "P-100" },
    admin,
    ["depth=-1", "depth=0", "depth=abc", "depth=1e99", "depth=2.5", `variant=${"v".repeat(201)}`],
  ],
  [
    "./analyst._index.tsx",
    "/analyst",
    {},
    admin,
    ["B=abc", "B=-1", "B=1e99", "B=50", "B=100.5", `seed=${"s".repeat(101)}`],
  ],
  [
    "./analyst.snapshots.compare.tsx",
    "/analyst/snapshots/compare",
    {},
    admin,
    ["", "a=1", "a=abc&b=1", "a=99999999999&b=1", "a=1&b=-1", "a=1&b=1e3"],
  ],
  [
    "./api.campaigns.$campaignId.export.ts",
    "/api/campaigns/1/export",
    { campaignId: "1" },
    admin,
    ["format=xls", "format=CSV", "format=%3Cscript%3E"],
  ],
  [
    "./api.experiments.$key.assignment.ts",
    "/api/experiments/api/assignment",
    { key: "api" },
    () => ({ Authorization: `Bearer ${apiKey}` }),
    ["", "unit=", "unit=%20%20", `unit=${"u".repeat(201)}`],
  ],
];

describe.each(queryCases)("%s", (file, pathname, params, headers, corpus) => {
  it.each(corpus)("?%s is a 400 with a sentence", async (query) => {
    const { status, sentence } = await answer(file, "loader", `${pathname}?${query}`, params, headers());
    expect(status).toBe(400);
    expect(sentence).toMatch(/^\S.*\.$/);
  });
});

it.each([
  [
    "./admin.proposals._index.tsx",
    "/admin/proposals?page=2&size=50&sort=title&dir=desc&q=&_data=routes%2Fadmin.proposals._index",
    {},
  ],
  ["./admin.users._index.tsx", "/admin/users?q=%25", {}],
  [
    "./admin.proposals.$proposalId.tsx",
    "/admin/proposals/P-100?depth=&variant=nope",
    { proposalId: "P-100" },
  ],
  ["./analyst.snapshots.compare.tsx", "/analyst/snapshots/compare?a=2147483647&b=1", {}],
])("%s still answers sensible parameters (%s)", async (file, url, params) => {
  const { status } = await answer(file, "loader", url, params, admin());
  // compare with ids that do not exist: a 404 sentence, not a 400
  expect(status).toBe(file.includes("compare") ? 404 : 200);
});

it.each([
  ["an item id past 32 bits", { item: "99999999999", grade: "2", position: "1" }, /item must be a card id/],
  ["an item id in exponent form", { item: "1e3", grade: "2", position: "1" }, /item must be a card id/],
  [
    "a NUL in the rationale",
    { item: "1", grade: "2", position: "1", rationale: "fine\u0000then not" },
    /NUL character/,
  ],
])("an expert's autosave with %s is a 400 with a sentence", async (_name, fields, message) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const request = new Request("http://localhost/expert/assignments/1", {
    method: "POST",
    body,
    headers: { Cookie: cookies.expert },
  });
  const response = (await routes["./expert.assignments.$assignmentId.tsx"].action!({
    request,
    params: { assignmentId: "1" },
    context: { cspNonce: "", ip: "" },
  })) as Response;
  expect(response.status).toBe(400);
  expect(answerErrors(await response.json()).join("; ")).toMatch(message);
});
