import { sql } from "drizzle-orm";
import type { RowError } from "./parse";
import type { Row, Writer } from "./index";
import { upsertCounted } from "./upsert";
import { convenerAttributes } from "../schema";
import { convenerIdsByEmail, unitOf } from "../experiments/convener";
import type { Db } from "../platform/client";

type Prepared = { unit: string; attribute: string; value: string }[];
const CHUNK = 5000;

/** The units (of those given) that some experiment exposed or logged: an external application's conveners. */
async function knownUnits(db: Db, units: string[]) {
  const known = new Set<string>();
  for (let i = 0; i < units.length; i += CHUNK) {
    const list = sql.join(
      units.slice(i, i + CHUNK).map((u) => sql`${u}`),
      sql`, `,
    );
    for (const r of await db.execute<{ unit: string }>(sql`
      select unit from exposures where unit in (${list})
      union select unit from event_sessions where unit in (${list})`))
      known.add(r.unit);
  }
  return known;
}

/**
 * Import entity `convener-attributes` (convener, attribute, value): attributes of conveners for slicing
 * A/B results (institution, seniority …). A convener is the email of a user with the convener role
 * (stored as their unit, `convener-<id>`, never the email) or a unit an experiment's exposures or events
 * name. One value per convener and attribute; a later import replaces it.
 */
export const convenerAttributesWriter: Writer<Prepared> = {
  async resolve(db, rows: Row<"convener-attributes">[], errors: RowError[], state) {
    const first = state.seen("convener-attributes");
    for (const r of rows) {
      // Emails match whatever their case; a unit is the events' id, exactly.
      const who = r.convener.includes("@") ? r.convener.toLowerCase() : r.convener;
      const key = `${who}\u0000${r.attribute}`;
      const seen = first.get(key);
      if (seen !== undefined)
        errors.push({ line: r.line, message: `${r.attribute} of ${r.convener} repeats line ${seen}` });
      else first.set(key, r.line);
    }
    const names = [...new Set(rows.map((r) => r.convener))];
    const byEmail = await convenerIdsByEmail(
      db,
      names.filter((n) => n.includes("@")),
    );
    const units = await knownUnits(
      db,
      names.filter((n) => !n.includes("@")),
    );
    const out: Prepared = [];
    for (const r of rows) {
      const id = byEmail.get(r.convener.toLowerCase());
      const unit = id !== undefined ? unitOf(id) : units.has(r.convener) ? r.convener : null;
      if (unit === null)
        errors.push({
          line: r.line,
          message: r.convener.includes("@")
            ? `no convener has the email ${r.convener}`
            : `unknown convener ${r.convener} (neither a convener's email nor a unit of any experiment)`,
        });
      else out.push({ unit, attribute: r.attribute, value: r.value });
    }
    return out;
  },
  write: (tx, rows) =>
    upsertCounted(tx, convenerAttributes, rows, [convenerAttributes.unit, convenerAttributes.attribute], {
      value: convenerAttributes.value,
    }),
};
