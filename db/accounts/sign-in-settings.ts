import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, DbOrTx } from "../platform/client";
import { signInSettings, type Role } from "../schema";
import { orderedRoles } from "../../scripts/inputs/roles";

export type SignInSettings = {
  /** What single sign-on does with a verified email that is neither a user nor invited. */
  unknownEmails: "refuse" | "join";
  /** The roles such a person gets when `unknownEmails` is "join". */
  joinRoles: Role[];
  /** Whether everyone may sign in with a password; when false, only accounts holding the admin role. */
  passwordSignIn: boolean;
};

// Until an admin saves the page: strangers are refused and passwords work, as before single sign-on.
export const DEFAULT_SIGN_IN_SETTINGS: SignInSettings = {
  unknownEmails: "refuse",
  joinRoles: ["expert"],
  passwordSignIn: true,
};

export async function getSignInSettings(db: DbOrTx): Promise<SignInSettings> {
  const [row] = await db.select().from(signInSettings);
  if (!row) return DEFAULT_SIGN_IN_SETTINGS;
  return { unknownEmails: row.unknownEmails, joinRoles: row.joinRoles, passwordSignIn: row.passwordSignIn };
}

/** Saves the one row of settings and records the change. */
export async function saveSignInSettings(db: Db, actor: AuditActor, input: SignInSettings) {
  const values = { ...input, joinRoles: orderedRoles(input.joinRoles), updatedAt: new Date() };
  await db.transaction(async (tx) => {
    await tx
      .insert(signInSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: signInSettings.id, set: values });
    await recordAudit(tx, actor, "settings.sign-in", "sign-in", {
      unknownEmails: values.unknownEmails,
      joinRoles: values.joinRoles,
      passwordSignIn: values.passwordSignIn,
    });
  });
}
