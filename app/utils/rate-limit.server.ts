/**
 * Fixed-window failure counters for sign-in, per IP and per account, held in this process.
 * One Assay process serves a deployment; several would need a shared store.
 */
export class FailureLimiter {
  private failures = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.limit ? entry.resetAt - now : 0;
  }

  fail(key: string, now = Date.now()) {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count++;
    if (this.failures.size > 50_000) this.prune(now);
  }

  reset(key: string) {
    this.failures.delete(key);
  }

  private prune(now: number) {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const signInLimiters = {
  byIp: new FailureLimiter(20, FIFTEEN_MINUTES),
  byAccount: new FailureLimiter(5, FIFTEEN_MINUTES),
};
