import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** The superuser of the embedded cluster. */
export const EMBEDDED_USER = "assay";
/** What clusters made before the password file were initialised with; migrated away on start. */
export const LEGACY_PASSWORD = "assay";

/** Where the embedded cluster's password is kept: beside the cluster, readable by its owner only. */
export function passwordFile(dataDir: string) {
  return path.join(dataDir, "postgres-password");
}

/** The stored password of the embedded cluster under `dataDir`, or null when none was written yet. */
export async function readEmbeddedPassword(dataDir: string): Promise<string | null> {
  try {
    const password = (await fs.readFile(passwordFile(dataDir), "utf8")).trim();
    return password || null;
  } catch {
    return null;
  }
}

/** The stored password, or a new random one written (mode 0600) before anything uses it. */
export async function ensureEmbeddedPassword(dataDir: string): Promise<string> {
  const stored = await readEmbeddedPassword(dataDir);
  if (stored) return stored;
  // Hex: safe inside a connection URL without escaping.
  const password = crypto.randomBytes(24).toString("hex");
  await fs.writeFile(passwordFile(dataDir), `${password}\n`, { mode: 0o600 });
  await fs.chmod(passwordFile(dataDir), 0o600);
  return password;
}

/**
 * Makes the running cluster accept `password`: when it still answers to the legacy `assay`/`assay`
 * (a cluster made before random passwords), it is changed. The file is written first, so a start
 * interrupted half-way finds the new password stored and the legacy one still working, and repeats.
 */
export async function migrateLegacyPassword(port: number, password: string, dataDir: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const connect = (pass: string) =>
    postgres({
      host: "127.0.0.1",
      port,
      user: EMBEDDED_USER,
      password: pass,
      database: "postgres",
      max: 1,
      onnotice: () => {},
      connect_timeout: 5,
    });
  const current = connect(password);
  try {
    await current`select 1`;
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== "28P01") throw error;
  } finally {
    await current.end();
  }
  const legacy = connect(LEGACY_PASSWORD);
  try {
    await legacy.unsafe(`alter user "${EMBEDDED_USER}" password '${password}'`);
  } catch (error) {
    if ((error as { code?: string }).code !== "28P01") throw error;
    throw new Error(
      `the embedded PostgreSQL accepts neither the password in ${passwordFile(
        dataDir,
      )} nor the legacy one; restore that file from a backup of the data directory`,
    );
  } finally {
    await legacy.end();
  }
}
