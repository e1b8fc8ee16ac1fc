import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { roleEnum, users } from "./users";

/**
 * Server-side sign-in sessions. The cookie carries only a random id; the table keeps its SHA-256, so
 * a copy of the table cannot be replayed as cookies. A session ends at `idleExpiresAt` (moved forward
 * as it is used) or `expiresAt` (fixed at sign-in), whichever comes first, or when its row is deleted
 * (sign-out, a password or role change, deactivation, an admin ending it).
 */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: timestamp("idle_expires_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    /**
     * The provider's ID token of a single sign-on session, kept to end the provider's session too at
     * sign-out (RP-initiated logout's id_token_hint). Never sent to the browser or logged.
     */
    idToken: text("id_token"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Every admin and analyst write, appended and never changed: a trigger (migrations/0009) refuses
 * update, delete and truncate, as for snapshots. `actorLabel` keeps who it was ("Ada <ada@x.org>",
 * or "cli") even if the user row is later renamed; `detail` holds what changed, never a secret.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    // No foreign key: the log outlives any change to users, and a cascade would be an update it refuses.
    actorId: integer("actor_id"),
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull().default(""),
    detail: jsonb("detail").notNull().default({}),
  },
  (t) => [
    // (at, id): the page's newest-first order and its keyset cursor, read from the index at any depth.
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_action_idx").on(t.action),
    index("audit_log_actor_idx").on(t.actorId),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * Keys the server derives values from, made once per database on first use (random, 32 bytes in
 * hex; `serverKey` in db/platform/server-keys.ts) so that every process on the database (web
 * servers, CLI, workers) derives the same values, before and after a restart or a restore, without
 * configuration. "pseudonyms" keys the experts' pseudonyms (HMAC-SHA256): without it a pseudonym
 * cannot be mapped back to a user. Never sent to a page, an export or a log.
 */
export const serverKeys = pgTable("server_keys", {
  purpose: text("purpose").primaryKey(),
  key: text("key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Failed sign-ins per key, shared by every server on the database (app/security/sign-in-throttle):
 * `scope` is the count ("address", "account and address", "account"), `keyHash` the SHA-256 of its key
 * (an address, a typed email), so the table holds no email or address as typed. A row past its scope's
 * forgetting time counts as none and is pruned.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    scope: text("scope").notNull(),
    keyHash: text("key_hash").notNull(),
    failures: integer("failures").notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.keyHash] }),
    index("sign_in_failures_last_idx").on(t.scope, t.lastAt),
  ],
);

/**
 * How people may sign in, set by an admin (one row, id 1; absent means the defaults). With single
 * sign-on configured (OIDC_ISSUER): whether a verified email the app does not know may join, with
 * `joinRoles`, or is refused; and whether password sign-in stays open to everyone (when off, accounts
 * holding the admin role can still use their password, so a provider outage cannot lock admins out).
 */
export const signInSettings = pgTable(
  "sign_in_settings",
  {
    id: integer("id").primaryKey().default(1),
    unknownEmails: text("unknown_emails", { enum: ["refuse", "join"] })
      .notNull()
      .default("refuse"),
    joinRoles: roleEnum("join_roles")
      .array()
      .notNull()
      .default(sql`'{expert}'::role[]`),
    passwordSignIn: boolean("password_sign_in").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sign_in_settings_one_row", sql`${t.id} = 1`),
    check("sign_in_settings_unknown", sql`${t.unknownEmails} in ('refuse', 'join')`),
    check("sign_in_settings_join_roles", sql`cardinality(${t.joinRoles}) >= 1`),
  ],
);
