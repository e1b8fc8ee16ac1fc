import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { subjects } from "./catalog";
import { roles } from "../../scripts/inputs/roles";

export type { Role } from "../../scripts/inputs/roles";

export const roleEnum = pgEnum("role", roles);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    // Any set of roles, at least one (the check below): a convener may also be an expert in their field.
    roles: roleEnum("roles").array().notNull(),
    // scrypt, "scrypt$N$r$p$salt$hash": the parameters travel with the hash so they can be raised later.
    passwordHash: text("password_hash").notNull(),
    // Set on a seeded demo account: its password is known to everyone, so the first sign-in must change it.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // The single sign-on identity linked at the person's first OIDC sign-in: the provider's `iss` and `sub`
    // (an email can change at the provider; the pair cannot). Null for password-only accounts.
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
  },
  // Emails are compared case-insensitively: "Ada@X.org" and "ada@x.org" are one account.
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    // The admin list's keyset orders by name or email, ties by id.
    index("users_name_idx").on(t.name, t.id),
    index("users_email_idx").on(t.email, t.id),
    uniqueIndex("users_oidc_identity_idx").on(t.oidcIssuer, t.oidcSubject),
    check("users_roles_not_empty", sql`cardinality(${t.roles}) >= 1`),
  ],
);

/** Subjects an expert is competent in; campaign assignment prefers matching experts. */
export const userSubjects = pgTable(
  "user_subjects",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.subjectId] }),
    index("user_subjects_subject_idx").on(t.subjectId),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * Single-use links sent by email: an admin's invitation (kind "invite": the person sets name and
 * password and becomes a user with `roles`) or a password reset (kind "reset", for `userId`). Only the
 * SHA-256 of the token is kept, so a copy of the table cannot be turned into working links. A link
 * works until `expiresAt`, once (`usedAt`), and not after `revokedAt`.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: ["invite", "reset"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    // NFKC + lower-case, as the person typed or was invited with; compared as such.
    email: text("email").notNull(),
    roles: roleEnum("roles")
      .array()
      .notNull()
      .default(sql`'{}'::role[]`),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("account_tokens_hash_idx").on(t.tokenHash),
    index("account_tokens_email_idx").on(t.email),
    check("account_tokens_kind", sql`${t.kind} in ('invite', 'reset')`),
  ],
);

export type AccountToken = typeof accountTokens.$inferSelect;
