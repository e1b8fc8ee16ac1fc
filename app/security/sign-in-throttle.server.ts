import { GrowingDelay } from "~/data/accounts.server";
import { getDb } from "~/utils/db.server";
import { addressKey } from "./rate-limit.server";

export { addressKey };

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Three counts, so that guessing is slow and nobody can lock another person out:
 * - per address (any account): 20 free failures, then 1 s doubling up to 15 min. Checked before the
 *   body is read, so a throttled address costs neither a parse nor an scrypt.
 * - per (account, address): 3 free, then 2 s doubling up to 15 min: one address guessing one account.
 * - per account (any address): 10 free, then 1 s doubling up to only 30 s. Guessing from many addresses
 *   meets it, and since it never exceeds 30 s, the owner signing in from their own address while someone
 *   guesses elsewhere waits at most that long: a delay, never a lockout someone else can trigger.
 * Accounts are keyed by the email as typed (NFKC, lower case), known or not, so a delay says nothing
 * about whether an account exists. The counts live in PostgreSQL (db/accounts/sign-in-counters.ts), so
 * two servers on one database count the same failures.
 */
export const signInThrottle = {
  byAddress: new GrowingDelay("address", {
    free: 20,
    baseMs: SECOND,
    capMs: 15 * MINUTE,
    forgetMs: 60 * MINUTE,
  }),
  byAccountAddress: new GrowingDelay("account and address", {
    free: 3,
    baseMs: 2 * SECOND,
    capMs: 15 * MINUTE,
    forgetMs: 60 * MINUTE,
  }),
  byAccount: new GrowingDelay("account", {
    free: 10,
    baseMs: SECOND,
    capMs: 30 * SECOND,
    forgetMs: 15 * MINUTE,
  }),
};

/** Milliseconds until an address may try again (any account), or 0. */
export const addressWait = (address: string, now = Date.now()) =>
  signInThrottle.byAddress.retryAfter(getDb(), address, now);

/** The one form of an email for counting and comparing: Unicode NFKC, trimmed, lower case. */
export const accountKey = (email: string) => email.normalize("NFKC").trim().toLowerCase();

/** How long a throttled person must wait, said in whole seconds or minutes. */
export function waitSentence(ms: number) {
  if (ms < MINUTE) {
    const seconds = Math.max(1, Math.ceil(ms / SECOND));
    return `Try again in ${seconds} second${seconds > 1 ? "s" : ""}.`;
  }
  const minutes = Math.ceil(ms / MINUTE);
  return `Try again in ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}

/** The wait of an attempt at `email` from `address`, and which count imposes it, or null. */
export async function signInWait(email: string, address: string, now = Date.now()) {
  const account = accountKey(email);
  const pair = await signInThrottle.byAccountAddress.retryAfter(getDb(), `${account} from ${address}`, now);
  if (pair > 0) return { ms: pair, scope: "account and address" as const };
  const any = await signInThrottle.byAccount.retryAfter(getDb(), account, now);
  if (any > 0) return { ms: any, scope: "account" as const };
  return null;
}

/** Counts a failed sign-in under all three keys. */
export async function failSignIn(email: string, address: string, now = Date.now()) {
  const account = accountKey(email);
  await signInThrottle.byAddress.fail(getDb(), address, now);
  await signInThrottle.byAccountAddress.fail(getDb(), `${account} from ${address}`, now);
  await signInThrottle.byAccount.fail(getDb(), account, now);
}

/**
 * A correct password clears the account's counts (only its owner can do that), but not the address's:
 * else signing in to one's own account would reset guessing at others.
 */
export async function succeedSignIn(email: string, address: string) {
  const account = accountKey(email);
  await signInThrottle.byAccountAddress.reset(getDb(), `${account} from ${address}`);
  await signInThrottle.byAccount.reset(getDb(), account);
}
