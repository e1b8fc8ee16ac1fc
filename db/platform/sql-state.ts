/** The error in a chain of causes that carries a SQLSTATE (drizzle wraps the driver's error). */
export function errorWithCode(error: unknown): unknown {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (
      typeof (e as { code?: unknown }).code === "string" &&
      /^[0-9A-Z]{5}$/.test((e as { code: string }).code)
    )
      return e;
  }
  return error;
}

/** The SQLSTATE of a PostgreSQL error, or null for anything else (a lost connection has none). */
export function sqlState(error: unknown): string | null {
  const code = (errorWithCode(error) as { code?: unknown }).code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** A unique index refused the row: another transaction stored the same key first. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";
