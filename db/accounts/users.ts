import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { hashPassword } from "./password";
import { deleteUserSessions } from "./sessions";
import { subjects, userSubjects, users, type Role } from "../schema";
import { publicUserColumns } from "./user-columns";

export { publicUserColumns } from "./user-columns";

export type PublicUser = {
  id: number;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: Date;
};

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists.`);
  }
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
    .select({ id: users.id, passwordHash: users.passwordHash, active: users.active, role: users.role })
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
  db: Db,
  actor: AuditActor,
  input: { email: string; name: string; role: Role; password: string; subjectIds?: number[] },
): Promise<PublicUser> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    if (await findUserByEmail(tx, input.email)) throw new DuplicateEmailError(input.email);
    const [user] = await tx
      .insert(users)
      .values({ email: input.email.trim(), name: input.name.trim(), role: input.role, passwordHash })
      .returning(publicUserColumns);
    const subjectIds = input.role === "expert" ? [...new Set(input.subjectIds ?? [])] : [];
    await setUserSubjects(tx, user.id, subjectIds);
    const detail = { email: user.email, name: user.name, role: user.role, subjectIds };
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

/**
 * Changes a user's name, role and subjects. A new role ends every session of the user, so what they
 * may do changes at once and they sign in again under it.
 */
export async function updateUser(
  db: Db,
  actor: AuditActor,
  id: number,
  change: { role: Role; name: string; subjectIds: number[] },
) {
  await db.transaction(async (tx) => {
    // Locked, so a concurrent change cannot slip between reading the old role and writing the new one.
    const [before] = await tx
      .select({ role: users.role, name: users.name })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    if (!before) return;
    const subjectIds = change.role === "expert" ? [...new Set(change.subjectIds)] : [];
    await tx.update(users).set({ role: change.role, name: change.name.trim() }).where(eq(users.id, id));
    await setUserSubjects(tx, id, subjectIds);
    const sessionsEnded = before.role !== change.role ? await deleteUserSessions(tx, id) : 0;
    await recordAudit(tx, actor, "user.update", `user:${id}`, {
      name: { from: before.name, to: change.name.trim() },
      role: { from: before.role, to: change.role },
      subjectIds,
      sessionsEnded,
    });
  });
}

/** Deactivates (ending every session) or reactivates a user; a reactivated user signs in afresh. */
export async function setUserActive(db: Db, actor: AuditActor, id: number, active: boolean) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ active }).where(eq(users.id, id));
    const sessionsEnded = active ? 0 : await deleteUserSessions(tx, id);
    const detail = active ? {} : { sessionsEnded };
    await recordAudit(tx, actor, active ? "user.activate" : "user.deactivate", `user:${id}`, detail);
  });
}

/** Sets a new password and ends every session of the user: whoever knew the old one is signed out. */
export async function setUserPassword(db: Db, actor: AuditActor, id: number, password: string) {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
    const sessionsEnded = await deleteUserSessions(tx, id);
    await recordAudit(tx, actor, "user.password", `user:${id}`, { sessionsEnded });
  });
}

export async function countActiveAdmins(db: DbOrTx) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.active, true)));
  return row.n;
}

export async function listUsers(db: DbOrTx, search = "") {
  const pattern = `%${search.trim()}%`;
  return (await db
    .select(publicUserColumns)
    .from(users)
    .where(search.trim() ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
    .orderBy(asc(users.role), asc(users.name))) as PublicUser[];
}

export async function subjectsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({ id: subjects.id, key: subjects.key, name: subjects.name })
    .from(userSubjects)
    .innerJoin(subjects, eq(subjects.id, userSubjects.subjectId))
    .where(eq(userSubjects.userId, userId))
    .orderBy(asc(subjects.name));
}
