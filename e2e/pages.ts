import type { BrowserContext, Page } from "@playwright/test";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { demoLogin, expect, signIn, test } from "./test";

/** What a page's address may be worked out from: the demo database and a signed-in page of its role. */
export interface PageContext {
  sql: postgres.Sql;
  page: Page;
}

/** One page of the app as one role sees it; `path` is fixed or found in the demo data. */
export interface AppPage {
  role: keyof typeof demoLogin | "anonymous";
  name: string;
  path: string | ((ctx: PageContext) => Promise<string>);
}

/** Freezes an offline snapshot with a small B (fast) and returns its id; the seed keeps two apart. */
async function freezeOfflineSnapshot(page: Page, seed: string) {
  await page.goto("/analyst/snapshots");
  await page.getByLabel("Resamples").fill("200");
  await page.getByLabel("Seed").fill(seed);
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await page.waitForURL(/\/analyst\/snapshots\/\d+(\?|$)/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

const autumnCampaign = async ({ sql }: PageContext) =>
  (await sql<{ id: number }[]>`select min(id) as id from campaigns`)[0].id;

/**
 * Every page of every role, with demo-data ids: the width and accessibility specs walk this list.
 * A new page is one line here (its role, a name, its path or how to find one).
 */
export const appPages: AppPage[] = [
  { role: "anonymous", name: "sign in", path: "/login" },

  { role: "admin", name: "overview", path: "/admin" },
  { role: "admin", name: "proposals", path: "/admin/proposals" },
  { role: "admin", name: "proposal", path: "/admin/proposals/prop-0001" },
  { role: "admin", name: "candidates", path: "/admin/candidates" },
  { role: "admin", name: "systems", path: "/admin/systems" },
  { role: "admin", name: "lists", path: "/admin/lists" },
  { role: "admin", name: "experiments", path: "/admin/experiments" },
  { role: "admin", name: "experiment", path: "/admin/experiments/reviewer-ranker-v2" },
  { role: "admin", name: "interleaving experiment", path: "/admin/experiments/reviewer-ranker-interleaved" },
  { role: "admin", name: "campaigns", path: "/admin/campaigns" },
  { role: "admin", name: "campaign", path: async (ctx) => `/admin/campaigns/${await autumnCampaign(ctx)}` },
  { role: "admin", name: "import", path: "/admin/import" },
  { role: "admin", name: "users", path: "/admin/users" },
  {
    role: "admin",
    name: "user",
    path: async ({ sql }) =>
      `/admin/users/${(await sql<{ id: number }[]>`select id from users where email = ${demoLogin.expert}`)[0].id}`,
  },
  { role: "admin", name: "audit", path: "/admin/audit" },

  { role: "analyst", name: "offline report", path: "/analyst" },
  { role: "analyst", name: "experiments and campaigns", path: "/analyst/experiments" },
  { role: "analyst", name: "experiment dashboard", path: "/analyst/experiments/reviewer-ranker-v2" },
  {
    role: "analyst",
    name: "experiment dashboard, sequential intervals",
    path: "/analyst/experiments/reviewer-ranker-v2?intervals=sequential",
  },
  { role: "analyst", name: "interleaving results", path: "/analyst/experiments/reviewer-ranker-interleaved" },
  { role: "analyst", name: "multileaving results", path: "/analyst/experiments/reviewer-ranker-multileaved" },
  { role: "analyst", name: "click models", path: "/analyst/experiments/reviewer-ranker-v2/clicks" },
  {
    role: "analyst",
    name: "campaign dashboard",
    path: async (ctx) => `/analyst/campaigns/${await autumnCampaign(ctx)}`,
  },
  { role: "analyst", name: "snapshots", path: "/analyst/snapshots" },
  {
    role: "analyst",
    name: "snapshot",
    path: async ({ page }) => `/analyst/snapshots/${await freezeOfflineSnapshot(page, "a11y-one")}`,
  },
  {
    role: "analyst",
    name: "snapshot comparison",
    path: async ({ page }) =>
      `/analyst/snapshots/compare?a=${await freezeOfflineSnapshot(page, "a11y-one")}&b=${await freezeOfflineSnapshot(page, "a11y-two")}`,
  },

  { role: "expert", name: "my assignments", path: "/expert" },
  {
    role: "expert",
    name: "grading task",
    path: async ({ sql }) =>
      `/expert/assignments/${(await sql<{ id: number }[]>`select min(a.id) as id from campaign_assignments a join users u on u.id = a.expert_id where u.email = ${demoLogin.expert}`)[0].id}`,
  },

  { role: "convener", name: "my proposals", path: "/convener" },
  { role: "convener", name: "proposal", path: "/convener/proposals/prop-0001" },
  {
    role: "convener",
    name: "candidate profile",
    path: async ({ page }) => {
      await page.goto("/convener/proposals/prop-0001");
      // A profile opens by a POST (the click is logged); its address is the form's action.
      return (await page.locator('form[action*="/candidates/"]').first().getAttribute("action"))!;
    },
  },
];

/** A connection to the e2e server's embedded database (see e2e/global-setup.ts). */
export async function demoDatabase() {
  return postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
}

/** The roles in the order of the list, each with its pages. */
export function pagesByRole() {
  const roles = [...new Set(appPages.map((p) => p.role))];
  return roles.map((role) => ({ role, pages: appPages.filter((p) => p.role === role) }));
}

/**
 * Declares one test per page of `appPages`, each role's pages sharing one signed-in browser page at
 * the given viewport (signing in once per role, not per page); `check` gets the page once loaded.
 */
export function testEveryPage(
  viewport: { width: number; height: number },
  check: (page: Page, entry: AppPage, path: string) => Promise<void>,
) {
  for (const { role, pages } of pagesByRole()) {
    test.describe(`${role} at ${viewport.width}×${viewport.height}`, () => {
      let context: BrowserContext;
      let page: Page;
      let sql: postgres.Sql;
      test.beforeAll(async ({ browser }) => {
        sql = await demoDatabase();
        // A context of its own (not browser.newPage): @axe-core/playwright needs one to open its frames in.
        context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport });
        page = await context.newPage();
        if (role !== "anonymous") await signIn(page, demoLogin[role]);
      });
      test.afterAll(async () => {
        await context?.close();
        await sql?.end();
      });
      for (const entry of pages) {
        test(`${role}: ${entry.name}`, async () => {
          test.setTimeout(180_000);
          const path = typeof entry.path === "string" ? entry.path : await entry.path({ sql, page });
          const response = await page.goto(path);
          expect(response?.status(), `${path} answers`).toBeLessThan(400);
          // Charts are drawn after hydration (Plot is imported on demand): wait for the network to settle.
          await page.waitForLoadState("networkidle");
          await check(page, entry, path);
        });
      }
    });
  }
}
