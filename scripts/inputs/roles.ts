/**
 * What a person can be in Assay. The browser needs these names (role pickers) as much as the database
 * (the `role` enum), so they live here, below both, and the schema takes them from this module.
 */
export const roles = ["admin", "analyst", "expert", "convener"] as const;
export type Role = (typeof roles)[number];
