import { sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";

/**
 * The candidates' group attributes by external id (attribute → candidate → value), for the fairness
 * figures of the expert and online tiers. Sensitive: only analysts' and admins' results read this.
 */
export async function loadCandidateAttributes(db: DbOrTx): Promise<Map<string, Map<string, string>>> {
  const attributes = new Map<string, Map<string, string>>();
  for (const r of await db.execute<{ attribute: string; candidate: string; value: string }>(sql`
    select a.attribute, c.external_id as candidate, a.value from candidate_attributes a
    join candidates c on c.id = a.candidate_id order by a.attribute, c.external_id`))
    attributes.set(r.attribute, (attributes.get(r.attribute) ?? new Map()).set(r.candidate, r.value));
  return attributes;
}
