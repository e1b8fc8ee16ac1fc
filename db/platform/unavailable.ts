/**
 * Whether an error means "the database cannot be reached right now" rather than "this query is wrong":
 * refused or reset sockets, the driver's closed/ended/destroyed connections and its connect timeout,
 * a server shutting down (57P01 admin, 57P02 crash, 57P03 cannot connect now) and any connection
 * exception (SQLSTATE class 08). These are the faults a retry a few seconds later can cure.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== error && cause !== undefined && isDatabaseUnavailable(cause);
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
]);
