import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedServer } from "../db/platform/embedded";
import { applyMigrations } from "../db/migrate";

export const TEMPLATE_DATABASE = "assay_template";
let server: EmbeddedServer | undefined;
let dataDir = "";

/** One real PostgreSQL for the whole run, with a migrated template that each test file clones. */
export async function setup(project: TestProject) {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "assay-vitest-"));
  server = await startEmbeddedPostgres({ dataDir, database: TEMPLATE_DATABASE });
  await applyMigrations(server.url);
  project.provide("templateDatabaseUrl", server.url);
}

export async function teardown() {
  await server?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}
