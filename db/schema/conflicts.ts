import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { candidates, proposals } from "./catalog";

/**
 * Declared conflicts of interest: this candidate must not review this proposal (a co-author, a
 * colleague, a competitor). The offline report counts them in the lists (COI@K) and campaign launch
 * never assigns the proposal to an expert who is a conflicted candidate.
 */
export const conflicts = pgTable(
  "conflicts",
  {
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id, { onDelete: "cascade" }),
    reason: text("reason").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.candidateId] })],
);

export type Conflict = typeof conflicts.$inferSelect;
