/**
 * The columns each catalog table can be sorted by. The browser needs them (sortable headers) as much as
 * the database reads (ORDER BY), so they live here, below both, with no server code.
 */
export const proposalSortable = ["externalId", "title", "subject", "lists", "gold"] as const;
export const candidateSortable = ["externalId", "name", "affiliation", "listed"] as const;
export const listSortable = ["system", "proposal", "variant", "items", "goldFound", "importedAt"] as const;
export const userSortable = ["name", "email"] as const;
