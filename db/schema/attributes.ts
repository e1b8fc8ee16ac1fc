import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { candidates } from "./catalog";

/**
 * Group attributes of candidates (gender, country, career stage, institution …), one value per
 * candidate and attribute, values as imported ("unknown" is a value of its own). Sensitive: read only for
 * admins' and analysts' fairness figures, never on an expert's page, and never shown for a group smaller
 * than the configured minimum.
 */
export const candidateAttributes = pgTable(
  "candidate_attributes",
  {
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id, { onDelete: "cascade" }),
    attribute: text("attribute").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.candidateId, t.attribute] })],
);

export type CandidateAttribute = typeof candidateAttributes.$inferSelect;
