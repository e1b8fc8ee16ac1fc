import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { candidates, proposals } from "./catalog";
import { systems } from "./systems";
import { accountTokens, users } from "./users";

export const campaignStatuses = ["draft", "running", "closed"] as const;
export const campaignStatusEnum = pgEnum("campaign_status", campaignStatuses);

/** A rating campaign: experts grade the pooled candidates of some proposals, blind. */
export const campaigns = pgTable("campaigns", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  instructions: text("instructions").notNull().default(""),
  status: campaignStatusEnum("status").notNull().default("draft"),
  /** The union of each system's top `poolDepth` per proposal is graded. */
  poolDepth: integer("pool_depth").notNull(),
  ratersPerProposal: integer("raters_per_proposal").notNull(),
  deadline: timestamp("deadline", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  launchedAt: timestamp("launched_at", { withTimezone: true }),
  closedAt: timestamp("closed_at", { withTimezone: true }),
});

export const campaignSystems = pgTable(
  "campaign_systems",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    systemId: integer("system_id")
      .notNull()
      .references(() => systems.id),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.systemId] })],
);

export const campaignProposals = pgTable(
  "campaign_proposals",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.proposalId] })],
);

export const campaignExperts = pgTable(
  "campaign_experts",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] })],
);

/**
 * An invitation sent from a campaign's page: once accepted (by link or single sign-on), the new expert
 * joins the campaign's expert pool (`campaign_experts`).
 */
export const campaignInvitations = pgTable(
  "campaign_invitations",
  {
    tokenId: integer("token_id")
      .notNull()
      .references(() => accountTokens.id, { onDelete: "cascade" }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.campaignId] }),
    index("campaign_invitations_campaign_idx").on(t.campaignId),
  ],
);

/**
 * One (proposal, candidate) pair to grade, once however many systems listed it. The alias is what
 * experts see instead of the candidate: random letters, never a number that reads as a rank.
 */
export const campaignItems = pgTable(
  "campaign_items",
  {
    id: serial("id").primaryKey(),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id),
    alias: text("alias").notNull(),
  },
  (t) => [
    unique("campaign_items_pair").on(t.campaignId, t.proposalId, t.candidateId),
    unique("campaign_items_alias").on(t.campaignId, t.proposalId, t.alias),
  ],
);

/**
 * A proposal given to an expert; `seed` fixes the card order for this (expert, proposal). It covers the
 * proposal's whole pool unless `campaignAssignmentItems` scopes it to some of its pairs.
 */
export const campaignAssignments = pgTable(
  "campaign_assignments",
  {
    id: serial("id").primaryKey(),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id),
    expertId: integer("expert_id")
      .notNull()
      .references(() => users.id),
    seed: text("seed").notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    active: boolean("active").notNull().default(true),
    assignedAt: timestamp("assigned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("campaign_assignments_once").on(t.campaignId, t.proposalId, t.expertId),
    index("campaign_assignments_expert_idx").on(t.expertId),
  ],
);

/**
 * The pairs an assignment is scoped to, when it was made to ask for more grades of chosen pairs ("needs
 * another grade"): an assignment with rows here covers only those pairs of its proposal, one without
 * covers the proposal's whole pool (launch, reassignment). Every read of an assignment's cards goes
 * through `assignmentCovers` (db/campaigns/assignment-scope.ts).
 */
export const campaignAssignmentItems = pgTable(
  "campaign_assignment_items",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => campaignAssignments.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.itemId] })],
);

/** An expert's grade of one pooled pair: 1–4, or null for "can't judge"; one per (assignment, item). */
export const ratings = pgTable(
  "ratings",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => campaignAssignments.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    grade: smallint("grade"),
    rationale: text("rationale").notNull().default(""),
    /** The 1-based position at which the card was shown. */
    position: integer("position").notNull(),
    timeSpentMs: integer("time_spent_ms").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.itemId] })],
);

export type Campaign = typeof campaigns.$inferSelect;
export type CampaignItem = typeof campaignItems.$inferSelect;

/** An admin's final grade for a pair the experts disagreed on, with a note; it overrides the median. */
export const adjudications = pgTable("adjudications", {
  itemId: integer("item_id")
    .primaryKey()
    .references(() => campaignItems.id, { onDelete: "cascade" }),
  grade: smallint("grade").notNull(),
  note: text("note").notNull().default(""),
  adjudicatedBy: integer("adjudicated_by")
    .notNull()
    .references(() => users.id),
  adjudicatedAt: timestamp("adjudicated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A gold item: the known grade of one pooled pair of a campaign, set by an admin (import entity `truth`
 * or the campaign page). Experts grade the pair like any other and are never told it is gold; their
 * grades are scored against it (rater accuracy, aggregation accuracy, learning curves).
 */
export const campaignTruth = pgTable("campaign_truth", {
  itemId: integer("item_id")
    .primaryKey()
    .references(() => campaignItems.id, { onDelete: "cascade" }),
  grade: smallint("grade").notNull(),
  setBy: integer("set_by").references(() => users.id),
  setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
});
