import { date, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

export const subjects = pgTable("subjects", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
});

export const proposals = pgTable(
  "proposals",
  {
    id: serial("id").primaryKey(),
    externalId: text("external_id").notNull().unique(),
    title: text("title").notNull(),
    abstract: text("abstract").notNull().default(""),
    keywords: text("keywords").array().notNull().default([]),
    subjectId: integer("subject_id").references(() => subjects.id),
    // When the proposal was submitted (optional): the offline report's time window and leakage check.
    date: date("date", { mode: "string" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // (title, id): the admin list's keyset order, read from the index at any depth.
  (t) => [index("proposals_subject_idx").on(t.subjectId), index("proposals_title_idx").on(t.title, t.id)],
);

export const candidates = pgTable(
  "candidates",
  {
    id: serial("id").primaryKey(),
    externalId: text("external_id").notNull().unique(),
    name: text("name").notNull(),
    affiliation: text("affiliation").notNull().default(""),
    // Used only to detect conflicts of interest (a candidate who is also an expert); never shown to experts.
    email: text("email"),
    keywords: text("keywords").array().notNull().default([]),
    summary: text("summary").notNull().default(""),
    // When the profile was written (optional); a profile dated after a proposal may leak its outcome.
    profileDate: date("profile_date", { mode: "string" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The admin list's keyset orders by name or affiliation, ties by id (external_id is unique already).
  (t) => [
    index("candidates_name_idx").on(t.name, t.id),
    index("candidates_affiliation_idx").on(t.affiliation, t.id),
  ],
);

export type Subject = typeof subjects.$inferSelect;
export type Proposal = typeof proposals.$inferSelect;
export type NewProposal = typeof proposals.$inferInsert;
export type Candidate = typeof candidates.$inferSelect;
export type NewCandidate = typeof candidates.$inferInsert;
