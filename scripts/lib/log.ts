/**
 * The one way the server writes an error to its log. Driver errors carry the failed query and its
 * parameters (drizzle even copies the parameters into the message: "Failed query: … params: …"), and
 * those parameters can be an API-key hash, a password hash or a session token; so a log line holds
 * the context, the message without parameters, the error code and the query text only, with anything
 * that looks like a key, hash or token masked.
 */
export function logError(context: string, error: unknown) {
  console.error(describeError(context, error));
}

const OUTAGE_LOG_EVERY_MS = 10_000;
let outageLoggedAt = -Infinity;
let outageSuppressed = 0;

/**
 * `logError` for "the database is unavailable": during an outage every request meets it, so it is
 * written at most once every 10 s, with how many more requests met it meanwhile.
 */
export function logDatabaseOutage(context: string, error: unknown) {
  const now = performance.now();
  if (now - outageLoggedAt < OUTAGE_LOG_EVERY_MS) return void outageSuppressed++;
  const more = outageSuppressed ? ` (and ${outageSuppressed} more requests since the last report)` : "";
  [outageLoggedAt, outageSuppressed] = [now, 0];
  logError(`${context}${more}`, error);
}

/** A message longer than this is cut: a long one is data (a row, a file), not a description. */
const MESSAGE_CHARS = 300;
const clip = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}… (cut)` : text);

/** The redacted one-line description `logError` prints (exported for its tests). */
export function describeError(context: string, error: unknown): string {
  const parts = [context];
  const seen = new Set<unknown>();
  for (
    let e: unknown = error;
    e && typeof e === "object" && !seen.has(e);
    e = (e as { cause?: unknown }).cause
  ) {
    seen.add(e);
    const { message, code, query } = e as { message?: unknown; code?: unknown; query?: unknown };
    // drizzle's own message repeats the query and its parameters: the query is taken from its field.
    const text =
      typeof message === "string"
        ? clip(message.replace(/^Failed query:[\s\S]*$/, "query failed"), MESSAGE_CHARS)
        : "";
    if (text) parts.push(text);
    if (typeof code === "string" || typeof code === "number") parts.push(`code ${code}`);
    if (typeof query === "string") parts.push(`query: ${query.replace(/\s+/g, " ").slice(0, 500)}`);
  }
  if (seen.size === 0) parts.push(String(error));
  return redactSecrets(parts.join(" | "));
}

/**
 * Masks what looks like a secret: API keys (`assay_…`), bearer tokens, long hex or base64 strings
 * (hashes, session ids), password hashes (`$scrypt$…`, `$2b$…`) and `password=`/`secret=` values.
 */
export function redactSecrets(text: string): string {
  return (
    text
      .replace(/\bBearer\s+\S+/gi, "Bearer [redacted]")
      .replace(/\$[a-z0-9]+\$[^\s"',]+/gi, "[redacted]")
      .replace(/\b((?:password|passwd|secret|token|key)\s*[=:]\s*)[^\s"',&]+/gi, "$1[redacted]")
      .replace(/\bassay_[A-Za-z0-9_-]{16,}/g, "[redacted]")
      .replace(/\b[0-9a-f]{24,}\b/gi, "[redacted]")
      // Without "/": a long file path in a message stays readable; keys and tokens here are base64url.
      .replace(/[A-Za-z0-9+_-]{32,}={0,2}/g, "[redacted]")
      .replace(/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/gi, "$1[redacted]@")
      // Personal data: an email address is masked wherever a message quotes one.
      .replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g, "[email]")
  );
}

/**
 * One structured line (JSON) for a security event, such as a failed sign-in: what happened, to which
 * user id, from which address. Callers pass no secret and no email; what they pass is redacted anyway.
 */
export function logSecurityEvent(event: string, fields: Record<string, string | number | boolean | null>) {
  const line = JSON.stringify({ time: new Date().toISOString(), level: "warn", event, ...fields });
  console.warn(redactSecrets(line));
}
