import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { isUniqueViolation } from "../platform/sql-state";
import { accountTokens, users, type Role } from "../schema";
import { logSecurityEvent } from "../../scripts/lib/log";
import { orderedRoles } from "../../scripts/inputs/roles";
import { joinInvitedCampaigns, normalEmail, pendingInvitationOf } from "./account-tokens";
import { getSignInSettings } from "./sign-in-settings";
import { publicUserColumns } from "./user-columns";
import type { PublicUser } from "./users";

/** What the provider's verified ID token says about the person (nothing else is read from it). */
export type OidcIdentity = {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
};

/** A password hash no password matches: an account made by single sign-on has no password until reset. */
export const NO_PASSWORD = "sso-only";

export type SsoRefusal =
  | "state"
  | "nonce"
  | "audience"
  | "provider"
  | "email not verified"
  | "unknown email"
  | "deactivated"
  | "linked to another identity";

const refusalMessage: Record<SsoRefusal, string> = {
  state: "This sign-in was not started here, or it took too long. Start again from the sign-in page.",
  nonce: "The identity provider's answer does not belong to this sign-in. Start again from the sign-in page.",
  audience: "The identity provider's answer was made for another application. Nothing was changed.",
  provider: "The identity provider did not complete the sign-in. Start again, or ask an admin.",
  "email not verified":
    "Your identity provider has not verified your email address, so Assay cannot tell who you are. Verify it there, then try again.",
  "unknown email":
    "There is no Assay account or invitation for your email address. Ask an admin to invite you.",
  deactivated: "This account is deactivated. Ask an admin to reactivate it.",
  "linked to another identity":
    "This Assay account is already linked to another sign-in of your identity provider. Ask an admin.",
};

/** Why single sign-on did not sign the person in; the page shows the message, nothing was written. */
export class SsoRefusedError extends Error {
  constructor(readonly reason: SsoRefusal) {
    super(refusalMessage[reason]);
  }
}

/**
 * Records a refused single sign-on in the audit log (actor "visitor") and the structured log. Never a
 * token, code or state; the email only when the provider verified it (an admin may then invite it).
 */
export async function recordSsoRefusal(
  db: DbOrTx,
  reason: SsoRefusal,
  detail: { userId?: number; email?: string; address: string },
) {
  logSecurityEvent("sso.refused", { reason, userId: detail.userId ?? null, address: detail.address });
  await recordAudit(db, "visitor", "user.sso-refused", detail.userId ? `user:${detail.userId}` : "", {
    reason,
    address: detail.address,
    ...(detail.email ? { email: detail.email } : {}),
  });
}

const fromLinked = (db: DbOrTx, id: OidcIdentity) =>
  db
    .select(publicUserColumns)
    .from(users)
    .where(and(eq(users.oidcIssuer, id.issuer), eq(users.oidcSubject, id.subject)));

/** The person's first sign-in: an invited email or (when allowed) a stranger becomes a new user. */
async function createFromSso(
  tx: DbOrTx,
  id: OidcIdentity,
  email: string,
  roles: Role[],
): Promise<PublicUser> {
  const name = (id.name?.trim() || email.split("@")[0]).slice(0, 200);
  const [user] = await tx
    .insert(users)
    .values({
      email,
      name,
      roles: orderedRoles(roles),
      passwordHash: NO_PASSWORD,
      oidcIssuer: id.issuer,
      oidcSubject: id.subject,
    })
    .returning(publicUserColumns);
  await recordAudit(tx, user as PublicUser, "user.create", `user:${user.id}`, {
    email,
    name,
    roles: user.roles,
    via: "sso",
  });
  return user as PublicUser;
}

type Outcome = { user: PublicUser; how: "returning" | "linked" | "invited" | "joined" };

/** The decision, inside one transaction; throws SsoRefusedError (with the user, if any) before writing. */
async function decide(tx: DbOrTx, id: OidcIdentity, now: Date): Promise<Outcome> {
  const [linked] = await fromLinked(tx, id);
  if (linked) {
    if (!linked.active) throw Object.assign(new SsoRefusedError("deactivated"), { userId: linked.id });
    return { user: linked as PublicUser, how: "returning" };
  }
  if (!id.email || id.emailVerified !== true) throw new SsoRefusedError("email not verified");
  const email = normalEmail(id.email);
  const [known] = await tx
    .select({ ...publicUserColumns, oidcIssuer: users.oidcIssuer, oidcSubject: users.oidcSubject })
    .from(users)
    .where(sql`lower(normalize(${users.email}, NFKC)) = ${email}`);
  // A first sign-in racing this one committed the account, linked to this very identity, after the
  // lookup above: decide again, and find it linked.
  if (known && known.oidcIssuer === id.issuer && known.oidcSubject === id.subject) return decide(tx, id, now);
  if (known) {
    const refusal = !known.active ? "deactivated" : known.oidcSubject ? "linked to another identity" : null;
    if (refusal) throw Object.assign(new SsoRefusedError(refusal), { userId: known.id });
    // Linked only if still unlinked: a first sign-in racing this one may have linked it meanwhile.
    const linkedNow = await tx
      .update(users)
      .set({ oidcIssuer: id.issuer, oidcSubject: id.subject })
      .where(and(eq(users.id, known.id), isNull(users.oidcSubject)))
      .returning({ id: users.id });
    if (linkedNow.length === 0) return decide(tx, id, now);
    await recordAudit(tx, known as PublicUser, "user.sso-link", `user:${known.id}`, { issuer: id.issuer });
    const { oidcIssuer: _issuer, oidcSubject: _subject, ...user } = known;
    return { user: user as PublicUser, how: "linked" };
  }
  const invitation = await pendingInvitationOf(tx, email, now);
  if (invitation) {
    await tx.update(accountTokens).set({ usedAt: now }).where(eq(accountTokens.id, invitation.id));
    const user = await createFromSso(tx, id, email, invitation.roles);
    await joinInvitedCampaigns(tx, invitation.id, user, "sso");
    return { user, how: "invited" };
  }
  const settings = await getSignInSettings(tx);
  if (settings.unknownEmails !== "join") throw new SsoRefusedError("unknown email");
  return { user: await createFromSso(tx, id, email, settings.joinRoles), how: "joined" };
}

/**
 * Signs a person in from a verified ID token: the account linked to (issuer, subject); else the account
 * or pending invitation of the verified email (NFKC + lower case, as invitations store it), which is
 * then linked; else a new account when the admin lets strangers join. A refusal is recorded and thrown.
 * Two first sign-ins of one person at once (two tabs, a double click) end alike: the one that stores
 * the account first wins, and the other, refused by the unique index, decides again and finds that
 * account linked. So the loser signs in too, and one account with one link is made.
 */
export async function signInWithOidc(db: Db, id: OidcIdentity, address: string, now = new Date()) {
  try {
    // A first sign-in racing this one may have stored the account (the unique index refuses ours) or
    // used the invitation after this one looked: deciding again on what is committed now finds that
    // account. A real refusal comes out the same the second time.
    return await db
      .transaction((tx) => decide(tx, id, now))
      .catch((error: unknown) => {
        if (!isUniqueViolation(error) && !(error instanceof SsoRefusedError)) throw error;
        return db.transaction((tx) => decide(tx, id, now));
      });
  } catch (error) {
    if (!(error instanceof SsoRefusedError)) throw error;
    const userId = (error as SsoRefusedError & { userId?: number }).userId;
    const email = id.email && id.emailVerified === true ? normalEmail(id.email) : undefined;
    await recordSsoRefusal(db, error.reason, { userId, email, address });
    throw error;
  }
}
