import { createHash } from "node:crypto";

/**
 * Canonical JSON: object keys sorted, no whitespace, non-finite numbers as null. The same value always
 * gives the same text, so its SHA-256 identifies a result.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value));
}

function normalise(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value) || ArrayBuffer.isView(value))
    return Array.from(value as ArrayLike<unknown>, normalise);
  if (value instanceof Map) return normalise(Object.fromEntries(value));
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalise(v);
    }
    return out;
  }
  return value;
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
