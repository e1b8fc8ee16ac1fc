import type { Db } from "../db/platform/client";

/**
 * A Cookie header value (`__assay_session=…`) for a new live session of `userId`, made the way sign-in
 * makes one. Set SESSION_SECRET before calling; `now` backdates or postdates the session.
 */
export async function createSessionCookie(
  db: Db,
  userId: number,
  options: { now?: Date; userAgent?: string; ip?: string } = {},
) {
  const { startSession } = await import("../app/security/sessions.server");
  const setCookie = await startSession(
    db,
    userId,
    { userAgent: options.userAgent ?? "vitest", ip: options.ip ?? "127.0.0.1" },
    options.now,
  );
  return setCookie.split(";")[0];
}
