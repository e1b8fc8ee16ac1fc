import { sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";

/**
 * The conveners' attributes by unit (attribute → unit → value), for slicing A/B results by who decides.
 * Sensitive: only analysts' and admins' results read this.
 */
export async function loadConvenerAttributes(db: DbOrTx): Promise<Map<string, Map<string, string>>> {
  const attributes = new Map<string, Map<string, string>>();
  for (const r of await db.execute<{ attribute: string; unit: string; value: string }>(sql`
    select attribute, unit, value from convener_attributes order by attribute, unit`))
    attributes.set(r.attribute, (attributes.get(r.attribute) ?? new Map()).set(r.unit, r.value));
  return attributes;
}
