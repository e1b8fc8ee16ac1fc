import { addressKey } from "./rate-limit.server";

export { addressKey };

/**
 * Failed sign-ins under a key earn a delay that doubles with each failure past the free ones, up to a
 * cap; a key with no failure for `forgetMs` starts afresh. Held in this process, like the other limits.
 */
export class GrowingDelay {
  private entries = new Map<string, { failures: number; last: number }>();
  constructor(private readonly rule: { free: number; baseMs: number; capMs: number; forgetMs: number }) {}

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    if (!entry || entry.failures < this.rule.free) return 0;
    const delay = Math.min(this.rule.capMs, this.rule.baseMs * 2 ** (entry.failures - this.rule.free));
    return Math.max(0, entry.last + delay - now);
  }

  fail(key: string, now = Date.now()) {
    const entry = this.live(key, now);
    this.entries.set(key, { failures: (entry?.failures ?? 0) + 1, last: now });
    if (this.entries.size > 50_000) this.prune(now);
  }

  reset(key: string) {
    this.entries.delete(key);
  }

  private live(key: string, now: number) {
    const entry = this.entries.get(key);
    return entry && now - entry.last < this.rule.forgetMs ? entry : undefined;
  }

  private prune(now: number) {
    for (const [key, entry] of this.entries)
      if (now - entry.last >= this.rule.forgetMs) this.entries.delete(key);
  }
}

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
 * about whether an account exists.
 */
export const signInThrottle = {
  byAddress: new GrowingDelay({ free: 20, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE }),
  byAccountAddress: new GrowingDelay({
    free: 3,
    baseMs: 2 * SECOND,
    capMs: 15 * MINUTE,
    forgetMs: 60 * MINUTE,
  }),
  byAccount: new GrowingDelay({ free: 10, baseMs: SECOND, capMs: 30 * SECOND, forgetMs: 15 * MINUTE }),
};

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
export function signInWait(email: string, address: string, now = Date.now()) {
  const account = accountKey(email);
  const pair = signInThrottle.byAccountAddress.retryAfter(`${account} from ${address}`, now);
  if (pair > 0) return { ms: pair, scope: "account and address" as const };
  const any = signInThrottle.byAccount.retryAfter(account, now);
  if (any > 0) return { ms: any, scope: "account" as const };
  return null;
}

/** Counts a failed sign-in under all three keys. */
export function failSignIn(email: string, address: string, now = Date.now()) {
  const account = accountKey(email);
  signInThrottle.byAddress.fail(address, now);
  signInThrottle.byAccountAddress.fail(`${account} from ${address}`, now);
  signInThrottle.byAccount.fail(account, now);
}

/**
 * A correct password clears the account's counts (only its owner can do that), but not the address's:
 * else signing in to one's own account would reset guessing at others.
 */
export function succeedSignIn(email: string, address: string) {
  const account = accountKey(email);
  signInThrottle.byAccountAddress.reset(`${account} from ${address}`);
  signInThrottle.byAccount.reset(account);
}
