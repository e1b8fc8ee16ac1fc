import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { accountTokens, campaignExperts, campaignInvitations, campaigns, users, type Role } from "../schema";
import { createUser, findUserByEmail, setUserPassword, DuplicateEmailError } from "./users";
import { orderedRoles } from "../../scripts/inputs/roles";

const DAY = 86_400_000;
export const INVITE_LIFETIME_MS = 7 * DAY;
/** The same, in whole days, for the pages that say how long a link works. */
export const INVITE_LIFETIME_DAYS = Math.round(INVITE_LIFETIME_MS / DAY);
// A reset link is worth a password: it lives an hour, long enough to reach the mailbox.
export const RESET_LIFETIME_MS = 3_600_000;

/** Emails are compared as NFKC + lower-case, so "Ａda@X.org" and "ada@x.org" are one address. */
export const normalEmail = (email: string) => email.normalize("NFKC").trim().toLowerCase();

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type TokenState = "pending" | "accepted" | "expired" | "revoked";

export function tokenState(
  row: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): TokenState {
  if (row.usedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

/** Why a link does not work; the page says so and nothing changes. */
export class BadLinkError extends Error {
  constructor(readonly reason: "unknown" | "expired" | "used" | "revoked") {
    super(
      {
        unknown: "This link is not valid. Check that you copied all of it, or ask for a new one.",
        expired: "This link has expired. Ask for a new one.",
        used: "This link has already been used. Sign in, or ask for a new one.",
        revoked: "This invitation was withdrawn. Ask the administrator for a new one.",
      }[reason],
    );
  }
}

async function issue(db: DbOrTx, values: Omit<typeof accountTokens.$inferInsert, "tokenHash">) {
  const token = randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(accountTokens)
    .values({ ...values, tokenHash: hashToken(token) })
    .returning({ id: accountTokens.id, expiresAt: accountTokens.expiresAt });
  return { ...row, token };
}

/**
 * An admin invites `email` with `roles`: returns the token, which only the mail (or the page) carries.
 * With `campaignId` (the campaign page's invitation) the person joins that campaign's expert pool on
 * accepting.
 */
export async function createInvitation(
  db: Db,
  actor: AuditActor,
  input: { email: string; roles: Role[]; campaignId?: number },
  now = new Date(),
) {
  const email = normalEmail(input.email);
  if (await findUserByEmail(db, email)) throw new DuplicateEmailError(email);
  return db.transaction(async (tx) => {
    const roles = orderedRoles(input.roles);
    const invite = await issue(tx, {
      kind: "invite",
      email,
      roles,
      createdBy: actor === "cli" ? null : actor.id,
      expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
    });
    if (input.campaignId !== undefined)
      await tx.insert(campaignInvitations).values({ tokenId: invite.id, campaignId: input.campaignId });
    await recordAudit(tx, actor, "invitation.create", `invitation:${invite.id}`, {
      email,
      roles,
      ...(input.campaignId !== undefined ? { campaignId: input.campaignId } : {}),
    });
    return invite;
  });
}

/** A new link for the same invitation: the old one stops working, the clock restarts. */
export async function resendInvitation(db: Db, actor: AuditActor, id: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const [old] = await tx.select().from(accountTokens).where(eq(accountTokens.id, id));
    if (!old || old.kind !== "invite" || old.usedAt) throw new BadLinkError(old?.usedAt ? "used" : "unknown");
    await tx.update(accountTokens).set({ revokedAt: now }).where(eq(accountTokens.id, id));
    const invite = await issue(tx, {
      kind: "invite",
      email: old.email,
      roles: old.roles,
      createdBy: actor === "cli" ? null : actor.id,
      expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
    });
    // The new link keeps the old one's campaigns.
    const links = await tx.select().from(campaignInvitations).where(eq(campaignInvitations.tokenId, id));
    if (links.length > 0)
      await tx
        .insert(campaignInvitations)
        .values(links.map((l) => ({ tokenId: invite.id, campaignId: l.campaignId })));
    await recordAudit(tx, actor, "invitation.resend", `invitation:${invite.id}`, { replaces: id });
    return { ...invite, email: old.email };
  });
}

export async function revokeInvitation(db: Db, actor: AuditActor, id: number, now = new Date()) {
  await db.transaction(async (tx) => {
    const done = await tx
      .update(accountTokens)
      .set({ revokedAt: now })
      .where(and(eq(accountTokens.id, id), eq(accountTokens.kind, "invite"), isNull(accountTokens.usedAt)))
      .returning({ id: accountTokens.id });
    if (done.length === 0) throw new BadLinkError("unknown");
    await recordAudit(tx, actor, "invitation.revoke", `invitation:${id}`, {});
  });
}

/** The admin's list, newest first, with each invitation's state; with `campaignId`, that campaign's only. */
export async function listInvitations(db: Db, options: { campaignId?: number } = {}, now = new Date()) {
  const ofCampaign =
    options.campaignId === undefined
      ? undefined
      : sql`${accountTokens.id} in (select ${campaignInvitations.tokenId} from ${campaignInvitations}
          where ${campaignInvitations.campaignId} = ${options.campaignId})`;
  const rows = await db
    .select({
      id: accountTokens.id,
      email: accountTokens.email,
      roles: accountTokens.roles,
      createdAt: accountTokens.createdAt,
      expiresAt: accountTokens.expiresAt,
      usedAt: accountTokens.usedAt,
      revokedAt: accountTokens.revokedAt,
      // The campaigns whose pool accepting joins (by name); none for an organisation-wide invitation.
      // The outer row is named in full: drizzle writes a column of the selected table unqualified.
      campaigns: sql<
        { id: number; name: string }[]
      >`coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.name, c.id)
          from ${campaignInvitations} ci join ${campaigns} c on c.id = ci.campaign_id where ci.token_id = "account_tokens"."id"), '[]')`,
    })
    .from(accountTokens)
    .where(and(eq(accountTokens.kind, "invite"), ofCampaign))
    .orderBy(desc(accountTokens.createdAt), desc(accountTokens.id));
  return rows.map((r) => ({ ...r, state: tokenState(r, now) }));
}

/** Finds a usable token of `kind`, or records why it is not (audit, without the token) and throws. */
async function usableToken(db: Db, kind: "invite" | "reset", token: string, now: Date) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token)), eq(accountTokens.kind, kind)));
  const reason = !row
    ? "unknown"
    : row.usedAt
      ? "used"
      : row.revokedAt
        ? "revoked"
        : row.expiresAt <= now
          ? "expired"
          : null;
  if (reason) {
    const target = row ? `${kind === "invite" ? "invitation" : "reset"}:${row.id}` : "";
    await recordAudit(db, "cli", `${kind === "invite" ? "invitation" : "reset"}.refused`, target, { reason });
    throw new BadLinkError(reason);
  }
  return row;
}

/**
 * The accepted invitation's campaigns take the new person into their expert pools, and the acceptance
 * is recorded with the person as its actor (`via`: the emailed link or single sign-on).
 */
export async function joinInvitedCampaigns(
  tx: DbOrTx,
  tokenId: number,
  user: { id: number; name: string; email: string },
  via: "link" | "sso",
) {
  const links = await tx
    .select({ campaignId: campaignInvitations.campaignId })
    .from(campaignInvitations)
    .where(eq(campaignInvitations.tokenId, tokenId));
  if (links.length > 0)
    await tx
      .insert(campaignExperts)
      .values(links.map((l) => ({ campaignId: l.campaignId, userId: user.id })))
      .onConflictDoNothing();
  const campaignIds = links.map((l) => l.campaignId);
  await recordAudit(tx, user, "invitation.accept", `invitation:${tokenId}`, {
    userId: user.id,
    via,
    campaignIds,
  });
}

/** The newest usable invitation of a normalised `email`, for single sign-on; null when there is none. */
export async function pendingInvitationOf(db: DbOrTx, email: string, now = new Date()) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.kind, "invite"),
        eq(accountTokens.email, email),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.revokedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(accountTokens.createdAt), desc(accountTokens.id))
    .limit(1);
  return row ?? null;
}

/** What the accept page shows before the form is sent (the email, nothing else). */
export async function checkInvitation(db: Db, token: string, now = new Date()) {
  const row = await usableToken(db, "invite", token, now);
  return { email: row.email };
}

/**
 * The invited person sets their name and password: the user is created (policy applies, see
 * createUser) and the link used up, together. Throws BadLinkError or WeakPasswordError, writing nothing.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  input: { name: string; password: string },
  now = new Date(),
) {
  const row = await usableToken(db, "invite", token, now);
  // One transaction: the link is used if and only if the account exists (a weak password or a crash
  // leaves it usable for a second try).
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt)))
      .returning({ id: accountTokens.id });
    if (claimed.length === 0) throw new BadLinkError("used");
    const user = await createUser(tx, "cli", {
      email: row.email,
      name: input.name,
      roles: row.roles,
      password: input.password,
    });
    await joinInvitedCampaigns(tx, row.id, user, "link");
    return user;
  });
}

/**
 * "Forgot password": a reset token when `email` belongs to an active user, else null. The caller
 * answers the same either way, so the page does not tell who has an account.
 */
export async function requestPasswordReset(db: Db, email: string, now = new Date()) {
  const [user] = await db
    .select({ id: users.id, email: users.email, active: users.active })
    .from(users)
    .where(sql`lower(${users.email}) = ${normalEmail(email)}`);
  if (!user || !user.active) return null;
  return db.transaction(async (tx) => {
    const reset = await issue(tx, {
      kind: "reset",
      email: normalEmail(user.email),
      userId: user.id,
      expiresAt: new Date(now.getTime() + RESET_LIFETIME_MS),
    });
    await recordAudit(tx, "cli", "reset.request", `user:${user.id}`, {});
    return { ...reset, email: user.email };
  });
}

/** Sets the new password from a reset link and ends all the person's sessions (setUserPassword). */
export async function resetPassword(db: Db, token: string, password: string, now = new Date()) {
  const row = await usableToken(db, "reset", token, now);
  const claimed = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt)))
    .returning({ id: accountTokens.id });
  if (claimed.length === 0 || row.userId === null) throw new BadLinkError("used");
  try {
    await setUserPassword(db, "cli", row.userId, password);
  } catch (error) {
    await db.update(accountTokens).set({ usedAt: null }).where(eq(accountTokens.id, row.id));
    throw error;
  }
  return { userId: row.userId };
}

/** Whether a reset link still works (the page shows its form only then); throws BadLinkError. */
export async function checkResetLink(db: Db, token: string, now = new Date()) {
  await usableToken(db, "reset", token, now);
}
