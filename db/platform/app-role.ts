import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";

/** The role the web app runs as: rows of every table, owner of none (migrations/0011). */
export const APP_ROLE = "assay_app";

/** Where the embedded cluster keeps the app role's password: beside the owner's, readable by its owner only. */
export function appPasswordFile(dataDir: string) {
  return path.join(dataDir, "postgres-app-password");
}

/**
 * The URL the web app connects with on the embedded cluster: as `assay_app`, so that what the app can
 * do is what its grants say (append to the audit log, never alter a table or switch off a trigger),
 * while migrations, the demo seed, backup and restore keep the owner's URL. The role gets LOGIN and a
 * random password made once per data directory (hex, so it needs no quoting). If the role is missing
 * (a migration could not make it), the owner's URL is returned and the reason logged.
 */
export async function embeddedAppUrl(ownerUrl: string, dataDir: string): Promise<string> {
  const password = await ensurePassword(appPasswordFile(dataDir));
  const sql = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  try {
    const [role] = await sql`select 1 from pg_roles where rolname = ${APP_ROLE}`;
    if (!role) {
      console.warn(`The role ${APP_ROLE} does not exist; the app runs as the database owner.`);
      return ownerUrl;
    }
    await sql.unsafe(`alter role ${APP_ROLE} login password '${password}'`);
  } finally {
    await sql.end();
  }
  return Object.assign(new URL(ownerUrl), { username: APP_ROLE, password }).toString();
}

async function ensurePassword(file: string): Promise<string> {
  try {
    const stored = (await fs.readFile(file, "utf8")).trim();
    if (/^[0-9a-f]{48}$/.test(stored)) return stored;
  } catch {
    // Not made yet: made below.
  }
  const password = crypto.randomBytes(24).toString("hex");
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  return password;
}
