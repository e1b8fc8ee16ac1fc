import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { candidates, proposals } from "./catalog";

export const systems = pgTable("systems", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  version: text("version").notNull().default(""),
  /** The offline protocol its lists answer, `given-2:SEED` (set by the lists import); null: plain lists. */
  protocol: text("protocol"),
  /** Optional, as the system's team reported it: seconds to build its model, and its memory in MB. */
  buildSeconds: doublePrecision("build_seconds"),
  memoryMb: doublePrecision("memory_mb"),
});

/** One system's ranked list for one phrasing (variant) of a proposal's query. */
export const rankedLists = pgTable(
  "ranked_lists",
  {
    id: serial("id").primaryKey(),
    systemId: integer("system_id")
      .notNull()
      .references(() => systems.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    variant: text("variant").notNull().default("default"),
    /** Optional: how long the system took to produce this list, in milliseconds (prediction time). */
    latencyMs: doublePrecision("latency_ms"),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("ranked_lists_system_proposal_variant").on(t.systemId, t.proposalId, t.variant),
    index("ranked_lists_proposal_idx").on(t.proposalId),
    // The admin list's keyset orders by system (its id), variant or import time, ties by id.
    index("ranked_lists_system_idx").on(t.systemId, t.id),
    index("ranked_lists_variant_idx").on(t.variant, t.id),
    index("ranked_lists_imported_idx").on(t.importedAt, t.id),
  ],
);

export const listItems = pgTable(
  "list_items",
  {
    listId: integer("list_id")
      .notNull()
      .references(() => rankedLists.id, { onDelete: "cascade" }),
    rank: integer("rank").notNull(),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id),
    score: doublePrecision("score"),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.rank] }),
    unique("list_items_list_candidate").on(t.listId, t.candidateId),
  ],
);

/** Historical committee members: the tier-1 "gold" labels (rel = 1). */
export const goldMembers = pgTable(
  "gold_members",
  {
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.candidateId] })],
);

export type System = typeof systems.$inferSelect;
export type RankedList = typeof rankedLists.$inferSelect;
export type ListItem = typeof listItems.$inferSelect;
export type GoldMember = typeof goldMembers.$inferSelect;
