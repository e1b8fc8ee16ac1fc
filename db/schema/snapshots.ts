import { integer, jsonb, pgEnum, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";
import { RESULT_KINDS } from "../../scripts/inputs/result-settings";

export const snapshotKinds = RESULT_KINDS;
export const snapshotKindEnum = pgEnum("snapshot_kind", snapshotKinds);

/**
 * A frozen result: the parameters, the data window it saw, the result and the SHA-256 of its canonical
 * JSON. Immutable: a trigger (migrations/0006) rejects every update and delete.
 */
export const snapshots = pgTable("snapshots", {
  id: serial("id").primaryKey(),
  kind: snapshotKindEnum("kind").notNull(),
  parameters: jsonb("parameters").notNull(),
  dataWindow: jsonb("data_window").notNull(),
  result: jsonb("result").notNull(),
  sha256: text("sha256").notNull(),
  createdBy: integer("created_by").references(() => users.id),
  createdByLabel: text("created_by_label").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Snapshot = typeof snapshots.$inferSelect;
