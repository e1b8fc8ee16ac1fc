import { and, arrayContains, asc, eq, ilike, ne, or, sql } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { keysetPage, type Cursor, type Page } from "../platform/keyset";
import { hashPassword, verifyPassword } from "./password";
import { passwordProblem } from "./password-policy";
import { deleteUserSessions } from "./sessions";
import { sessions, subjects, userSubjects, users, type Role } from "../schema";
import { publicUserColumns } from "./user-columns";
import { orderedRoles } from "../../scripts/inputs/roles";

export { publicUserColumns } from "./user-columns";

export type PublicUser = {
  id: number;
  email: string;
  name: string;
  roles: Role[];
  active: boolean;
  mustChangePassword: boolean;
  createdAt: Date;
};

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists.`);
  }
}

/** A new password too easy to guess (`passwordProblem`): nothing is written. */
export class WeakPasswordError extends Error {}

/** Throws WeakPasswordError when `password` is common or close to the person's name or email. */
async function refuseWeakPassword(password: string, related: string[]) {
  const problem = await passwordProblem(password, related);
  if (problem) throw new WeakPasswordError(problem);
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ ...publicUserColumns })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row as PublicUser | undefined;
}

/** Only sign-in needs the hash; it never travels further than the check. */
export async function findCredentials(db: DbOrTx, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      active: users.active,
      roles: users.roles,
      mustChangePassword: users.mustChangePassword,
    })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function getUser(db: DbOrTx, id: number) {
  const [row] = await db.select(publicUserColumns).from(users).where(eq(users.id, id));
  return row as PublicUser | undefined;
}

/** Creates a user and records who did it (`actor`) in the audit log, in one transaction. */
export async function createUser(
  db: DbOrTx,
  actor: AuditActor,
  input: { email: string; name: string; roles: Role[]; password: string; subjectIds?: number[] },
): Promise<PublicUser> {
  await refuseWeakPassword(input.password, [input.email, input.name]);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    if (await findUserByEmail(tx, input.email)) throw new DuplicateEmailError(input.email);
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email.normalize("NFKC").trim(),
        name: input.name.trim(),
        roles: orderedRoles(input.roles),
        passwordHash,
      })
      .returning(publicUserColumns);
    const subjectIds = user.roles.includes("expert") ? [...new Set(input.subjectIds ?? [])] : [];
    await setUserSubjects(tx, user.id, subjectIds);
    const detail = { email: user.email, name: user.name, roles: user.roles, subjectIds };
    await recordAudit(tx, actor, "user.create", `user:${user.id}`, detail);
    return user as PublicUser;
  });
}

export async function setUserSubjects(db: DbOrTx, userId: number, subjectIds: number[]) {
  await db.delete(userSubjects).where(eq(userSubjects.userId, userId));
  if (subjectIds.length > 0) {
    await db
      .insert(userSubjects)
      .values([...new Set(subjectIds)].map((subjectId) => ({ userId, subjectId })));
  }
}

/** A change would leave no active admin; checked under lock, so two admins cannot race past it. */
export class LastAdminError extends Error {
  constructor() {
    super("This is the last active admin; make another admin first.");
  }
}

/**
 * Throws LastAdminError when taking admin access from `userId` would leave no active admin. It locks
 * every active admin's row (FOR UPDATE, in id order, so two such transactions cannot deadlock) before
 * counting: of two admins removing each other at once, the second waits for the first, then sees its
 * change and is refused. Call it inside the transaction that makes the change.
 */
export async function keepAnActiveAdmin(tx: DbOrTx, userId: number) {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(arrayContains(users.roles, ["admin"]), eq(users.active, true)))
    .orderBy(asc(users.id))
    .for("update");
  if (admins.some((a) => a.id === userId) && admins.length <= 1) throw new LastAdminError();
}

const sameRoles = (a: readonly Role[], b: readonly Role[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/**
 * Changes a user's name, roles and subjects. Other roles end every session of the user, so what they
 * may do changes at once and they sign in again under them. Taking the last active admin's admin role
 * throws LastAdminError and changes nothing.
 */
export async function updateUser(
  db: Db,
  actor: AuditActor,
  id: number,
  change: { roles: Role[]; name: string; subjectIds: number[] },
) {
  const roles = orderedRoles(change.roles);
  await db.transaction(async (tx) => {
    if (!roles.includes("admin")) await keepAnActiveAdmin(tx, id);
    // Locked, so a concurrent change cannot slip between reading the old roles and writing the new ones.
    const [before] = await tx
      .select({ roles: users.roles, name: users.name })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    if (!before) return;
    const subjectIds = roles.includes("expert") ? [...new Set(change.subjectIds)] : [];
    await tx.update(users).set({ roles, name: change.name.trim() }).where(eq(users.id, id));
    await setUserSubjects(tx, id, subjectIds);
    const sessionsEnded = sameRoles(before.roles, roles) ? 0 : await deleteUserSessions(tx, id);
    await recordAudit(tx, actor, "user.update", `user:${id}`, {
      name: { from: before.name, to: change.name.trim() },
      roles: { from: before.roles, to: roles },
      subjectIds,
      sessionsEnded,
    });
  });
}

/**
 * Deactivates (ending every session) or reactivates a user; a reactivated user signs in afresh.
 * Deactivating the last active admin throws LastAdminError and changes nothing.
 */
export async function setUserActive(db: Db, actor: AuditActor, id: number, active: boolean) {
  await db.transaction(async (tx) => {
    if (!active) await keepAnActiveAdmin(tx, id);
    await tx.update(users).set({ active }).where(eq(users.id, id));
    const sessionsEnded = active ? 0 : await deleteUserSessions(tx, id);
    const detail = active ? {} : { sessionsEnded };
    await recordAudit(tx, actor, active ? "user.activate" : "user.deactivate", `user:${id}`, detail);
  });
}

/** Sets a new password and ends every session of the user: whoever knew the old one is signed out. */
export async function setUserPassword(db: Db, actor: AuditActor, id: number, password: string) {
  const user = await getUser(db, id);
  await refuseWeakPassword(password, user ? [user.email, user.name] : []);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
    const sessionsEnded = await deleteUserSessions(tx, id);
    await recordAudit(tx, actor, "user.password", `user:${id}`, { sessionsEnded });
  });
}

/**
 * A person changes their own password: the current one must be right (else false and nothing changes).
 * Every other session of theirs ends, so whoever knew the old password is signed out; the session
 * they made the change in (`keepSession`, an id hash) stays.
 */
export async function changeOwnPassword(
  db: Db,
  user: { id: number; name: string; email: string },
  change: { current: string; next: string; keepSession: string | null },
): Promise<boolean> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
  if (!row || !(await verifyPassword(change.current, row.hash))) return false;
  await refuseWeakPassword(change.next, [user.email, user.name]);
  const passwordHash = await hashPassword(change.next);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, user.id));
    const ended = await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, user.id),
          change.keepSession ? ne(sessions.idHash, change.keepSession) : undefined,
        ),
      )
      .returning({ userId: sessions.userId });
    await recordAudit(tx, user, "user.password-change", `user:${user.id}`, {
      otherSessionsEnded: ended.length,
    });
  });
  return true;
}

export async function countActiveAdmins(db: DbOrTx) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(arrayContains(users.roles, ["admin"]), eq(users.active, true)));
  return row.n;
}

export async function listUsers(db: DbOrTx, search = "") {
  const pattern = `%${search.trim()}%`;
  return (await db
    .select(publicUserColumns)
    .from(users)
    .where(search.trim() ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
    .orderBy(asc(users.name), asc(users.id))) as PublicUser[];
}

/**
 * A page of users for the admin's list: by name or email, ties by id, paged by keyset from a cursor
 * (as every long list), searched in name and email.
 */
export async function listUsersPage(db: DbOrTx, page: Page & Cursor) {
  const pattern = `%${page.q}%`;
  const where = page.q ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined;
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  const plan = keysetPage(
    { ...page, total },
    {
      column: page.sort === "email" ? users.email : users.name,
      id: users.id,
      keyed: true,
    },
  );
  const read = await db
    .select({ ...publicUserColumns, key: plan.key })
    .from(users)
    .where(and(where, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const { rows, edges } = plan.finish(read);
  return { rows: rows.map(({ key: _key, ...user }) => user as PublicUser), total, cursors: edges };
}

export async function subjectsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({ id: subjects.id, key: subjects.key, name: subjects.name })
    .from(userSubjects)
    .innerJoin(subjects, eq(subjects.id, userSubjects.subjectId))
    .where(eq(userSubjects.userId, userId))
    .orderBy(asc(subjects.name));
}
