/**
 * What a person can be in Assay. The browser needs these names (role pickers) as much as the database
 * (the `role` enum), so they live here, below both, and the schema takes them from this module.
 */
export const roles = ["admin", "analyst", "expert", "convener"] as const;
export type Role = (typeof roles)[number];

/** Whether a person holding `held` may act as any of `needed`. */
export function holdsRole(held: readonly Role[], needed: Role | readonly Role[]): boolean {
  const wanted: readonly Role[] = typeof needed === "string" ? [needed] : needed;
  return wanted.some((role) => held.includes(role));
}

/** A set of roles in the one order pages show them (admin, analyst, expert, convener), without repeats. */
export function orderedRoles(held: readonly Role[]): Role[] {
  return roles.filter((role) => held.includes(role));
}
