import { json } from "@remix-run/node";
import { experimentForApiKey, type ExperimentWithArms } from "../../db/experiments";
import { getDb } from "./db.server";

/** Errors of the JSON API: always a JSON body with one sentence in `error`. */
export function apiError(status: number, error: string, headers: Record<string, string> = {}) {
  return json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The experiment of the request's API key (`Authorization: Bearer …` or `X-Api-Key`), or a 401. */
export async function requireApiKey(request: Request): Promise<ExperimentWithArms> {
  const header = request.headers.get("Authorization");
  const key = header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : request.headers.get("X-Api-Key")?.trim();
  if (!key) throw apiError(401, "Send an experiment API key as `Authorization: Bearer <key>`.", { "WWW-Authenticate": "Bearer" });
  const experiment = await experimentForApiKey(getDb(), key);
  if (!experiment) throw apiError(401, "This API key is unknown, revoked or expired.", { "WWW-Authenticate": "Bearer" });
  return experiment;
}

/** The request body as text, refusing (413) more than `limit` bytes without reading the rest. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > limit) throw apiError(413, `The body is larger than ${limit / 1024 / 1024} MB.`);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw apiError(413, `The body is larger than ${limit / 1024 / 1024} MB.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
