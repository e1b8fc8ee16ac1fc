import { sql } from "drizzle-orm";
import type { Db } from "../../db/platform/client";

/**
 * An experiment's events generated in SQL: `sessions` sessions of 8 events each (one impression of 20,
 * five clicks, then two adopts, or one adopt and a `finish`), over 5,000 units alternating between arms
 * A and B and 2,000 proposals, one session every 20 seconds from `from`. The dashboard benches' data.
 */
export async function generateEvents(
  db: Db,
  experimentId: number,
  o: { sessions: number; from: string; finish?: boolean; prefix?: string },
) {
  const prefix = o.prefix ?? "";
  const last = o.finish ? sql`'finish'` : sql`'adopt'`;
  await db.execute(sql`
    insert into events (event_id, experiment_id, type, at, arm, unit, session_id, proposal_id, candidate_id, items)
    select ${prefix} || 'e-' || s || '-' || k, ${experimentId},
      case when k = 0 then 'impression' when k <= 5 then 'click' when k = 6 then 'adopt' else ${last} end,
      ${o.from}::timestamptz + s * interval '20 seconds' + k * interval '1 second',
      case when (s % 5000) % 2 = 0 then 'A' else 'B' end, 'u' || (s % 5000), ${prefix} || 's' || s, 'p' || (s % 2000),
      case when k = 0 or (k = 7 and ${o.finish ?? false}) then null else 'c' || ((s * 7 + (1 + (s + k) % 20) * 13) % 3000) end,
      case when k = 0 then array(select 'c' || ((s * 7 + g * 13) % 3000) from generate_series(1, 20) g) else null end
    from generate_series(1, ${o.sessions}::int) s, generate_series(0, 7) k`);
}
