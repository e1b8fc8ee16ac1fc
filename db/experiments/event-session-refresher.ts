import { createDb } from "../platform/client";
import { refreshAllEventSessions } from "./event-sessions";
import { logError } from "../../scripts/lib/log";

/**
 * Keeps `event_sessions` close to the events while the server runs: every 15 seconds it recomputes
 * the sessions queued since the last pass, so a dashboard view finds little left to do even after a
 * large import. Views refresh before reading anyway; this only moves the work off their path.
 */
export function startSessionRefresher(databaseUrl: string, everyMs = 15_000) {
  const { db, sql } = createDb(databaseUrl, { max: 1 });
  let running = false;
  let failing = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await refreshAllEventSessions(db);
      failing = false;
    } catch (error) {
      // Said once per outage: the views still refresh for themselves.
      if (!failing) logError("Could not refresh the online sessions", error);
      failing = true;
    } finally {
      running = false;
    }
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await sql.end({ timeout: 5 });
  };
}
