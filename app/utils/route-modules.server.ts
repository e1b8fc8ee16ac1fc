import type { ServerBuild } from "@remix-run/node";

export type RouteModule = ServerBuild["routes"][string]["module"];

/**
 * A copy of the Remix build whose route modules are `change(module)`: how `server.ts` puts a guard
 * around every loader or action, so that no route can forget it. The modules are ES module namespaces,
 * which are frozen, so `change` returns a new object rather than assigning to the old one.
 */
export function mapRouteModules(
  build: ServerBuild,
  change: (module: RouteModule) => RouteModule,
): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => [id, { ...route, module: change(route.module) }]),
  );
  return { ...build, routes };
}
