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

/**
 * Attributes of conveners (institution, seniority …), one value per convener and attribute, values as
 * imported ("unknown" a value of its own), for slicing A/B results by who decides. Keyed by the
 * randomization unit as the events name it (`convener-<user id>` for conveners in Assay, an external
 * application's own unit id otherwise), so a unit never needs an email. Sensitive: read only for admins'
 * and analysts' results.
 */
export const convenerAttributes = pgTable(
  "convener_attributes",
  {
    unit: text("unit").notNull(),
    attribute: text("attribute").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.unit, t.attribute] })],
);
