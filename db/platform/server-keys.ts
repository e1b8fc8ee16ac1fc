import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "./client";
import { serverKeys } from "../schema";

/**
 * The database's key for `purpose` (hex), made on first use (32 random bytes; of two first uses at
 * once, the one stored first is kept). Made here rather than by a migration so that a restore, which
 * needs an empty database, brings back the archive's keys and with them the same pseudonyms.
 */
export async function serverKey(db: DbOrTx, purpose: string): Promise<string> {
  const stored = () =>
    db.select({ key: serverKeys.key }).from(serverKeys).where(eq(serverKeys.purpose, purpose));
  const [row] = await stored();
  if (row) return row.key;
  await db
    .insert(serverKeys)
    .values({ purpose, key: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  return (await stored())[0].key;
}
