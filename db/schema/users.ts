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
  },
  // Emails are compared case-insensitively: "Ada@X.org" and "ada@x.org" are one account.
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
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
