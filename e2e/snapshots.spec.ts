import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";
import { demoLogin, expect, signIn, test } from "./test";

/** A GET from the page itself: the session cookie is Secure, which Playwright's request client withholds over http. */
const get = (page: Page, url: string) => page.evaluate(async (u) => {
  const r = await fetch(u);
  return { status: r.status, text: await r.text() };
}, url);

test("an analyst freezes a snapshot, downloads it, and the CLI computes the same result", async ({ page }) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/snapshots");
  await page.getByLabel("Resamples").fill("200");
  await page.getByLabel("Seed").fill("e2e");
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  await expect(page.getByRole("status")).toHaveText("The data has not changed since this snapshot.");
  await expect(page.getByRole("table", { name: "Snapshot figures" }).getByRole("row", { name: /^challenger overall Success@10 0\.\d{4}/ })).toBeVisible();
  const id = page.url().split("/").pop()!;

  const json = await get(page, `/api/snapshots/${id}.json`);
  expect(json.status).toBe(200);
  const doc = JSON.parse(json.text);
  expect(doc).toMatchObject({ schema: "assay.snapshot/v1", kind: "offline", parameters: { B: 200, seed: "e2e" } });
  const csv = (await get(page, `/api/snapshots/${id}.csv`)).text;
  expect(csv.split("\r\n")[0]).toBe("system_or_arm,group,measure,value,ci_lower,ci_upper");

  // The CLI, on the same database, with the same parameters: the same sha256.
  const out = execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/assay.ts", "snapshot", "create", "--kind", "offline", "--bootstrap", "200", "--seed", "e2e"], {
    env: { ...process.env, ASSAY_DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(out).toContain(`sha256 ${doc.sha256}`);

  await page.reload();
  await page.getByLabel("Compare with snapshot").selectOption({ index: 0 });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByText("Identical results (same sha256).")).toBeVisible();
});

test("experts get 403 on snapshots and their exports", async ({ page }) => {
  await signIn(page, demoLogin.expert);
  expect((await page.goto("/analyst/snapshots"))?.status()).toBe(403);
  expect((await get(page, "/api/snapshots/1.json")).status).toBe(403);
  expect((await get(page, "/api/snapshots/1.csv")).status).toBe(403);
});
