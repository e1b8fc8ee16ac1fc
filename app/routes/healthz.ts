import { json } from "@remix-run/node";
import { getSql } from "~/utils/db.server";

const DEADLINE_MS = 2_000;

/**
 * GET /healthz: 200 `{ok: true, db: "up"}` when the database answers `select 1` within 2 s, else 503
 * `{ok: false, db: "down"}` (while the database is away the pool fails at once, see connection-gate).
 */
export async function loader() {
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise(
      (_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), DEADLINE_MS)),
    );
    await Promise.race([getSql()`select 1`, deadline]);
    return json({ ok: true, db: "up" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return json({ ok: false, db: "down" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  } finally {
    clearTimeout(timer);
  }
}
