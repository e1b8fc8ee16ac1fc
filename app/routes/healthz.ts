import { json } from "@remix-run/node";
import { getSql } from "~/utils/db.server";

export async function loader() {
  try {
    await Promise.race([getSql()`select 1`, new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000))]);
    return json({ ok: true, db: "up" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return json({ ok: false, db: "down" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
