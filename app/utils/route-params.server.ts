import { json } from "@remix-run/node";
import type { z } from "zod";
import { toId } from "../../scripts/inputs/ids";

/** Pages answer `{ message }` (their error boundary shows it); the JSON API answers `{ error }`. */
export type ErrorShape = "page" | "api";

const refusal = (shape: ErrorShape, sentence: string, status: number) =>
  shape === "api"
    ? json({ error: sentence }, { status, headers: { "Cache-Control": "no-store" } })
    : json({ message: sentence }, { status });

/** What a bad value looked like, short enough for a sentence. */
const shown = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/**
 * The numeric id of a route segment, or a 404 "There is no <what> with id <raw>." when it is not a
 * positive 32-bit integer (such an id cannot exist, and a larger one would fail in PostgreSQL).
 */
export function parseId(raw: string | undefined, what: string, shape: ErrorShape = "page"): number {
  const id = toId(raw);
  if (id === null) throw refusal(shape, `There is no ${what} with id ${shown(raw ?? "")}.`, 404);
  return id;
}

/**
 * The request's query parameters read by one zod schema, or a 400 whose sentence names what was wrong.
 * An empty parameter (`?page=`, as a cleared form field sends it) counts as absent; parameters the schema
 * does not name (Remix's own `_data`, `index`) are ignored.
 */
export function parseQuery<S extends z.ZodTypeAny>(
  request: Request,
  schema: S,
  shape: ErrorShape = "page",
): z.infer<S> {
  const params = [...new URL(request.url).searchParams].filter(([, value]) => value !== "");
  const result = schema.safeParse(Object.fromEntries(params));
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => i.message).join("; ");
  throw refusal(shape, `This address has a query parameter Assay cannot use: ${problems}.`, 400);
}
