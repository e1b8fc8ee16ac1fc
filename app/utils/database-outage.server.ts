import type { ServerBuild } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isDatabaseUnavailable } from "../../db/platform/unavailable";
import { logDatabaseOutage } from "../../scripts/lib/log";
import { mapRouteModules, type RouteModule } from "./route-modules.server";

/** What every request answers while the database cannot be reached. */
export const DATABASE_UNAVAILABLE = "The database is unavailable just now; retry in a few seconds.";

/**
 * The 503 for a request that met an unreachable database: JSON `{error}` under /api/ (the API's
 * shape), otherwise `{message}`, which the route's ErrorBoundary shows as the page.
 */
export function databaseUnavailableResponse(request: Request) {
  const api = new URL(request.url).pathname.startsWith("/api/");
  const headers = { "Retry-After": "5", "Cache-Control": "no-store" };
  return json(api ? { error: DATABASE_UNAVAILABLE } : { message: DATABASE_UNAVAILABLE }, {
    status: 503,
    headers,
  });
}

type DataFunction = (args: { request: Request }) => unknown;

/**
 * The one place that turns "database unavailable" into an answer: every loader and action of the
 * build is wrapped so that such an error is logged (redacted) and thrown on as the 503 above. Remix
 * then renders the route's ErrorBoundary with status 503 for a page, answers 503 to a client-side
 * data request, and returns the JSON as is from a resource route such as /api/….
 */
export function withDatabaseOutages(build: ServerBuild): ServerBuild {
  const wrap = (fn: DataFunction | undefined) =>
    fn &&
    (async (args: { request: Request }) => {
      try {
        return await fn(args);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        logDatabaseOutage(
          `${args.request.method} ${new URL(args.request.url).pathname}: database unavailable`,
          error,
        );
        throw databaseUnavailableResponse(args.request);
      }
    });
  return mapRouteModules(build, (module) => {
    const functions = module as { loader?: DataFunction; action?: DataFunction };
    return { ...module, loader: wrap(functions.loader), action: wrap(functions.action) } as RouteModule;
  });
}
