/**
 * Fixed-window failure counters for sign-in, held in this process. One Assay process serves a
 * deployment; several would need a shared store.
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

/**
 * Failed sign-ins are counted per address and per (account, address), never per account alone: a
 * count per account would let anyone lock a user out by guessing wrong on purpose, while a correct
 * password from an address with no failures always works. Guessing one account from many addresses
 * meets scrypt's cost on every try.
 */
export const signInLimiters = {
  byAddress: new FailureLimiter(20, FIFTEEN_MINUTES),
  byAccountAddress: new FailureLimiter(5, FIFTEEN_MINUTES),
};

/**
 * The key an address is counted under. IPv6 hosts usually hold a whole /64 and can change address
 * within it at will, so an IPv6 address counts as its /64; IPv4 (also IPv4-mapped) as itself.
 */
export function addressKey(ip: string): string {
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (!address.includes(":")) return address || "unknown";
  const [head, tail = ""] = address.split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const zeros = Array(Math.max(0, 8 - left.length - right.length)).fill("0");
  const groups = address.includes("::") ? [...left, ...zeros, ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
