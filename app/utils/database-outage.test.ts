import type { ServerBuild } from "@remix-run/node";
import { createDb } from "../../db/platform/client";
import { freePort } from "../../db/platform/embedded";
import { DATABASE_UNAVAILABLE, withDatabaseOutages } from "./database-outage.server";

/**
 * The one mapping from "database unavailable" to an answer: any loader or action meeting it throws a
 * 503 (JSON `{error}` under /api/, `{message}` for pages) that says to retry; other errors pass as they are.
 */
async function buildAgainstClosedPort() {
  const { db, sql } = createDb(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`, { max: 1 });
  const query = () => db.query.users.findFirst();
  const build = {
    routes: {
      page: { id: "page", path: "page", module: { loader: query, default: () => null } },
      api: { id: "api", path: "api/x", module: { action: query } },
      broken: { id: "broken", path: "broken", module: { loader: () => Promise.reject(new Error("a bug")) } },
    },
  } as unknown as ServerBuild;
  return {
    routes: withDatabaseOutages(build).routes as unknown as Record<
      string,
      { module: Record<string, (a: { request: Request }) => Promise<unknown>> }
    >,
    end: () => sql.end(),
  };
}

it("answers 503 with a sentence to retry, as a page error or as API JSON (how fast: npm run bench -- outage)", async () => {
  const { routes, end } = await buildAgainstClosedPort();
  vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const page = await routes.page.module
      .loader({ request: new Request("http://localhost/page") })
      .catch((e: unknown) => e);
    expect(page).toBeInstanceOf(Response);
    expect((page as Response).status).toBe(503);
    expect((page as Response).headers.get("Retry-After")).toBe("5");
    expect(await (page as Response).json()).toEqual({ message: DATABASE_UNAVAILABLE });
    const api = await routes.api.module
      .action({ request: new Request("http://localhost/api/x", { method: "POST" }) })
      .catch((e: unknown) => e);
    expect((api as Response).status).toBe(503);
    expect(await (api as Response).json()).toEqual({ error: DATABASE_UNAVAILABLE });
    await expect(
      routes.broken.module.loader({ request: new Request("http://localhost/broken") }),
    ).rejects.toThrow("a bug");
  } finally {
    vi.restoreAllMocks();
    await end();
  }
});
