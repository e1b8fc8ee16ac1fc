import { z } from "zod";

/** Database ids are PostgreSQL `serial`/`integer`: positive and at most 2³¹ − 1. */
export const MAX_ID = 2_147_483_647;

/**
 * A database id read from text (a route segment, a query or form field), or null when it is not a
 * positive 32-bit integer: a larger number would make PostgreSQL fail the query instead of finding nothing.
 */
export function toId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * A form or query field holding a database id, as `toId` reads it (digits only: not `1e3`, not `0x10`);
 * `message` says what was expected. Shared by client and server.
 */
export const idField = (message: string) =>
  z
    .preprocess(
      (v) => (typeof v === "number" ? String(v) : v),
      z.string({ required_error: message, invalid_type_error: message }),
    )
    .transform((raw, ctx) => {
      const id = toId(raw.trim());
      if (id === null) ctx.addIssue({ code: "custom", message });
      return id ?? z.NEVER;
    });
