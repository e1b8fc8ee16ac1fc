import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { addressKey } from "./rate-limit.server";

/** The largest body the JSON API takes (the events route's own limit; see api.events.ts). */
export const API_BODY_LIMIT = 1024 * 1024;
/** What a refused body may still be read and discarded, so that the client receives the 413. */
const DRAIN_BYTES = 8 * 1024 * 1024;
const MINUTE = 60_000;

/**
 * Requests per minute in fixed windows, per key, held in this process (each app process counts its own
 * share; behind a proxy that spreads load, the deployment's limit is the sum).
 */
export class RequestLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly perMinute: number) {}

  /** Counts one request for `key`: 0 when it may go ahead, else the milliseconds until it may. */
  take(key: string, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + MINUTE };
      this.windows.set(key, entry);
      if (this.windows.size > 50_000) this.prune(now);
    }
    entry.count++;
    return entry.count > this.perMinute ? entry.resetAt - now : 0;
  }

  private prune(now: number) {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}

/** The API key a request presents (as `requireApiKey` reads it), hashed: the counter never holds it. */
function presentedKey(req: Request): string | null {
  const header = req.get("Authorization");
  const key = header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : req.get("X-Api-Key");
  return key ? crypto.createHash("sha256").update(key.trim()).digest("hex") : null;
}

const limited = (path: string) =>
  path === "/api/events" || /^\/api\/experiments\/[^/]+\/assignment$/.test(path);

/**
 * Express middleware before Remix, for the events and assignment APIs: a declared body over the API's
 * limit is refused with 413 before it is read or the key looked up (its rest is drained, up to 8 MB,
 * so the client gets the answer rather than a reset); then at most `perKey` requests a minute per API
 * key and `perAddress` per client address (an IPv6 /64 counts as one), else 429 with Retry-After.
 */
export function apiLimits(options: { perKey: number; perAddress: number }) {
  const byKey = new RequestLimiter(options.perKey);
  const byAddress = new RequestLimiter(options.perAddress);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!limited(req.path)) return next();
    if (Number(req.get("Content-Length") ?? 0) > API_BODY_LIMIT) return refuseBody(req, res);
    const key = presentedKey(req);
    const wait = Math.max(byAddress.take(addressKey(req.ip ?? "unknown")), key ? byKey.take(key) : 0);
    if (wait === 0) return next();
    const seconds = Math.ceil(wait / 1000);
    res
      .status(429)
      .set({ "Retry-After": String(seconds), "Cache-Control": "no-store" })
      .json({ error: `Too many requests; try again in ${seconds} seconds.` });
  };
}

function refuseBody(req: Request, res: Response) {
  const declared = Number(req.get("Content-Length"));
  const answer = () =>
    res
      .status(413)
      .set({ "Cache-Control": "no-store", Connection: "close" })
      .json({ error: `The body is larger than ${API_BODY_LIMIT / 1024 / 1024} MB; send smaller batches.` });
  // Past the drain bound the answer goes at once and the connection closes after it.
  if (declared > DRAIN_BYTES) return answer();
  req.on("end", answer);
  req.resume();
}
