import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { candidates, proposals, subjects } from "./catalog";
import { systems } from "./systems";
import { users } from "./users";
import type { AnyGuardrail } from "../../scripts/inputs/guardrails";
import { INTERLEAVING_METHODS } from "../../scripts/inputs/interleaving-methods";

export const experimentStatuses = ["draft", "running", "stopped"] as const;
export const experimentStatusEnum = pgEnum("experiment_status", experimentStatuses);
export const experimentScopes = ["all", "subject", "list"] as const;
export const experimentScopeEnum = pgEnum("experiment_scope", experimentScopes);
/** "ab": each unit sees its arm's system; "interleaving": every session sees the team-draft merge of two systems. */
export const experimentKinds = ["ab", "interleaving"] as const;
export const experimentKindEnum = pgEnum("experiment_kind", experimentKinds);
/**
 * How an interleaving experiment merges its systems' lists: team-draft (two systems), team-draft
 * multileaving (three or more), probabilistic interleaving (two). Kept as "team-draft" for A/B.
 */
export const interleavingMethods = INTERLEAVING_METHODS;

export const experiments = pgTable("experiments", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  status: experimentStatusEnum("status").notNull().default("draft"),
  kind: experimentKindEnum("kind").notNull().default("ab"),
  method: text("interleaving_method", { enum: interleavingMethods }).notNull().default("team-draft"),
  /** GrowthBook hash seed; the key unless given. */
  seed: text("seed").notNull(),
  coverage: doublePrecision("coverage").notNull().default(1),
  committeeCap: integer("committee_cap").notNull().default(5),
  scope: experimentScopeEnum("scope").notNull().default("all"),
  scopeSubjectId: integer("scope_subject_id").references(() => subjects.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp("started_at", { withTimezone: true }),
  stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  /** How the A/B result is read (docs/online-experiments.md): GrowthBook's frequentist or Bayesian engine. */
  engine: text("engine", { enum: ["frequentist", "bayesian"] })
    .notNull()
    .default("frequentist"),
  /** CUPED on each metric, the covariate being the same metric per convener in the pre-period. */
  cuped: boolean("cuped").notNull().default(false),
  prePeriodDays: integer("pre_period_days").notNull().default(28),
  /** The Bayesian engine's normal prior on the relative effect; no variance = a flat prior. */
  priorMean: doublePrecision("prior_mean").notNull().default(0),
  priorVariance: doublePrecision("prior_variance"),
  /** Guardrail metrics with the harmful direction and tolerated relative change (scripts/inputs/guardrails). */
  guardrails: jsonb("guardrails").$type<AnyGuardrail[]>().notNull().default([]),
});

/** The proposals of an experiment whose scope is an explicit list. */
export const experimentProposals = pgTable(
  "experiment_proposals",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.proposalId] })],
);

export const arms = pgTable(
  "arms",
  {
    id: serial("id").primaryKey(),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    systemId: integer("system_id")
      .notNull()
      .references(() => systems.id),
    weight: doublePrecision("weight").notNull(),
    isControl: boolean("is_control").notNull().default(false),
    /** Arms keep the order they were given in: GrowthBook's bucket ranges depend on it. */
    position: integer("position").notNull(),
  },
  (t) => [
    unique("arms_experiment_key").on(t.experimentId, t.key),
    unique("arms_experiment_position").on(t.experimentId, t.position),
  ],
);

/** Keys for applications that log from outside Assay; only a SHA-256 of each key is stored. */
export const experimentApiKeys = pgTable(
  "experiment_api_keys",
  {
    id: serial("id").primaryKey(),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    /** The first characters, to tell keys apart in lists. */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("experiment_api_keys_experiment_idx").on(t.experimentId)],
);

/** The first arm a unit was exposed to; it sticks for the experiment's life. */
export const exposures = pgTable(
  "exposures",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    unit: text("unit").notNull(),
    armId: integer("arm_id")
      .notNull()
      .references(() => arms.id),
    exposedAt: timestamp("exposed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.unit] })],
);

/** Which convener is to pick a committee for which proposal. */
export const convenerAssignments = pgTable(
  "convener_assignments",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    assignedAt: timestamp("assigned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.proposalId] })],
);

/**
 * Convener interactions, append-only. Exactly-once per experiment: (experiment, the sender's event id)
 * is the primary key, and inserts use ON CONFLICT DO NOTHING. Scoped by experiment so that one
 * experiment's ids never hide another's events, and its key cannot probe which ids another has used.
 * Proposal and candidate ids are kept as the sender gave them.
 */
export const events = pgTable(
  "events",
  {
    eventId: text("event_id").notNull(),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull(),
    arm: text("arm").notNull(),
    unit: text("unit").notNull(),
    sessionId: text("session_id").notNull(),
    proposalId: text("proposal_id").notNull(),
    candidateId: text("candidate_id"),
    items: text("items").array(),
    /** Interleaving impressions: the system key that placed each item, parallel to `items`. */
    teams: text("teams").array(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "events_pkey", columns: [t.experimentId, t.eventId] }),
    index("events_experiment_at_idx").on(t.experimentId, t.at),
    index("events_experiment_session_idx").on(t.experimentId, t.unit, t.sessionId),
  ],
);

/**
 * One row per session of an experiment's events: the session's online-metric inputs, so a dashboard
 * reads O(sessions) rows and never re-derives them from the events. Kept by db/experiments/experiments/event-sessions.ts
 * from the sessions a trigger on `events` queues in `eventSessionsDirty`. `arms` and
 * `armEvents` are parallel: a session logged in two arms marks its unit for exclusion, and the per-arm
 * event counts stay exact.
 */
export const eventSessions = pgTable(
  "event_sessions",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    unit: text("unit").notNull(),
    sessionId: text("session_id").notNull(),
    arms: text("arms")
      .array()
      .notNull()
      .default(sql`'{}'`),
    armEvents: integer("arm_events")
      .array()
      .notNull()
      .default(sql`'{}'`),
    events: integer("events").notNull().default(0),
    firstAt: timestamp("first_at", { withTimezone: true, mode: "string" }),
    impressions: integer("impressions").notNull().default(0),
    shown: integer("shown").notNull().default(0),
    clicked: integer("clicked").notNull().default(0),
    adopted: integer("adopted").notNull().default(0),
    adoptedRankSum: integer("adopted_rank_sum").notNull().default(0),
    unshownEvents: integer("unshown_events").notNull().default(0),
    /** The proposal of the session's first event (slices by subject, the conflict-of-interest guardrail). */
    proposalId: text("proposal_id"),
    /** The adopted shown candidates, as the events name them (the conflict-of-interest guardrail). */
    adoptedIds: text("adopted_ids")
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Minutes from the first impression to the first `finish` event; null when not finished. */
    minutesToFinish: doublePrecision("minutes_to_finish"),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.unit, t.sessionId] })],
);

/**
 * Sessions with events not yet in `eventSessions`, one row per insert statement that touched them.
 * Writers only append here, so concurrent batches of one session never wait on each other.
 */
export const eventSessionsDirty = pgTable(
  "event_sessions_dirty",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    unit: text("unit").notNull(),
    sessionId: text("session_id").notNull(),
  },
  (t) => [index("event_sessions_dirty_session_idx").on(t.experimentId, t.unit, t.sessionId)],
);

/** Every proposal and candidate id an experiment's events name, kept by the same trigger: unknown ids are findings. */
export const eventIds = pgTable(
  "event_ids",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["proposal", "candidate"] }).notNull(),
    externalId: text("external_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.kind, t.externalId] })],
);

export type Experiment = typeof experiments.$inferSelect;
export type Arm = typeof arms.$inferSelect;
export type StoredEvent = typeof events.$inferSelect;

export const sessionStatuses = ["open", "finished"] as const;
export const sessionStatusEnum = pgEnum("convener_session_status", sessionStatuses);

/**
 * A convener's work on one proposal in one experiment. A reload resumes the open session (a new
 * impression of the same session); at most one is open per convener, experiment and proposal.
 */
export const convenerSessions = pgTable(
  "convener_sessions",
  {
    id: text("id").primaryKey(),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    proposalId: integer("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    unit: text("unit").notNull(),
    arm: text("arm").notNull(),
    status: sessionStatusEnum("status").notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("convener_sessions_lookup_idx").on(t.experimentId, t.userId, t.proposalId),
    uniqueIndex("convener_sessions_one_open_idx")
      .on(t.experimentId, t.userId, t.proposalId)
      .where(sql`${t.status} = 'open'`),
  ],
);

export const committeeMembers = pgTable(
  "committee_members",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => convenerSessions.id, { onDelete: "cascade" }),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => candidates.id),
    adoptedAt: timestamp("adopted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.candidateId] })],
);
