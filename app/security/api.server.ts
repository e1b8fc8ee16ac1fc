import { json } from "@remix-run/node";
import { experimentForApiKey, type ExperimentWithArms } from "../../db/experiments/experiments";
import { getDb } from "../utils/db.server";

/** Errors of the JSON API: always a JSON body with one sentence in `error`. */
export function apiError(status: number, error: string, headers: Record<string, string> = {}) {
  return json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The experiment of the request's API key (`Authorization: Bearer …` or `X-Api-Key`), or a 401. */
export async function requireApiKey(request: Request): Promise<ExperimentWithArms> {
  const header = request.headers.get("Authorization");
  const key = header?.toLowerCase().startsWith("bearer ")
    ? header.slice(7).trim()
    : request.headers.get("X-Api-Key")?.trim();
  if (!key)
    throw apiError(401, "Send an experiment API key as `Authorization: Bearer <key>`.", {
      "WWW-Authenticate": "Bearer",
    });
  const experiment = await experimentForApiKey(getDb(), key);
  if (!experiment)
    throw apiError(401, "This API key is unknown, revoked or expired.", { "WWW-Authenticate": "Bearer" });
  return experiment;
}

/** What a refused body may still be read (and discarded) so that the client receives the 413. */
export const DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * The request body as UTF-8 text, refusing (413) more than `limit` bytes, declared in Content-Length
 * or sent chunked, and (400) bytes that are not UTF-8: decoding them would turn each bad sequence
 * into U+FFFD, so two different ids could arrive as one. The refused rest is read and discarded up
 * to `DRAIN_BYTES` rather than the stream cancelled: cancelling destroys the socket, and the client
 * would see a connection reset instead of the 413. Past that bound, reading stops and the answer
 * closes the connection.
 */
export async function readBody(request: Request, limit: number): Promise<string> {
  const tooLarge = `The body is larger than ${limit / 1024 / 1024} MB; send smaller batches.`;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > limit) throw await refuseRest(reader, 0, declared > DRAIN_BYTES, tooLarge);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) throw await refuseRest(reader, size, false, tooLarge);
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw apiError(400, "The body is not valid UTF-8; send the JSON encoded as UTF-8.");
  }
}

/** The 413 for a body too large, once its rest is discarded (up to `DRAIN_BYTES` read in all). */
async function refuseRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  read: number,
  skip: boolean,
  message: string,
): Promise<Response> {
  let received = read;
  while (!skip && received <= DRAIN_BYTES) {
    const { done, value } = await reader.read();
    if (done) return apiError(413, message);
    received += value.byteLength;
  }
  // Not cancelled (that would reset the connection before the answer is out): Node stops reading
  // the paused request, and `Connection: close` ends the connection once the 413 is sent.
  reader.releaseLock();
  return apiError(413, message, { Connection: "close" });
}

/**
 * Why a Content-Type is not JSON, or null: the media type must be exactly `application/json` (any
 * case); a `charset` parameter is fine when it says UTF-8, the only encoding JSON is exchanged in.
 */
export function jsonContentTypeProblem(header: string | null): string | null {
  const expected = "Send the body as JSON with `Content-Type: application/json`";
  if (!header) return `${expected}; this request has no Content-Type.`;
  const [essence, ...parameters] = header.split(";");
  const quoted = JSON.stringify(header.length > 60 ? `${header.slice(0, 60)}…` : header);
  if (essence.trim().toLowerCase() !== "application/json") return `${expected}; this request says ${quoted}.`;
  for (const parameter of parameters) {
    const [name, value = ""] = parameter.split("=");
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (name.trim().toLowerCase() === "charset" && charset !== "utf-8" && charset !== "utf8")
      return `JSON must be sent as UTF-8; this request says ${quoted}.`;
  }
  return null;
}
