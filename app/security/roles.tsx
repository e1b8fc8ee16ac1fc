import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import type { Role } from "../../scripts/inputs/roles";

/**
 * The signed-in person's roles, from the root loader, for what a page offers (a link to a page of
 * another role). Never a guard: every loader and action checks the role it needs on the server.
 */
export function useRoles(): readonly Role[] {
  return useRouteLoaderData<typeof rootLoader>("root")?.user?.roles ?? [];
}
