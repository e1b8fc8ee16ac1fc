import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { ingestEvents } from "~/data/experiments.server";
import { apiError, jsonContentTypeProblem, readBody, requireApiKey } from "~/security/api.server";
import { getDb } from "~/utils/db.server";
import { logDatabaseOutage, logError } from "../../scripts/lib/log";
import { CommitOutcomeUnknown, isDatabaseUnavailable } from "~/data/platform.server";

export const MAX_EVENTS = 500;
export const MAX_BYTES = 1024 * 1024;

/**
 * POST /api/events with an experiment API key: `{"events": [...]}` as `application/json` in UTF-8,
 * at most 500 events and 1 MB (declared or chunked). The answer comes after commit: 200
 * `{accepted, duplicates, rejected: [{index, reason}]}`: a bad event is rejected by its index and the
 * rest stored, so data never makes the batch fail. A body that cannot be read is a 4xx and stores
 * nothing; only a server fault (the database down) is a 503, and only when nothing of the batch was
 * committed, so the sender retries the whole batch (retried events count as duplicates). A batch whose
 * commit was lost in a restart is answered 200 once the database confirms it committed; if it cannot
 * say in time, the 503 says the batch may have been stored (a retry is still safe).
 */
export async function action(args: ActionFunctionArgs) {
  try {
    return await receive(args);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if (thrown instanceof CommitOutcomeUnknown) {
      logDatabaseOutage("POST /api/events: batch outcome unknown", thrown.cause);
      return apiError(
        503,
        "The database went away while storing the events and could not say whether they were stored. Retry the batch: events already stored count as duplicates.",
        { "Retry-After": "1" },
      );
    }
    // The database is down or failed mid-batch and confirmed nothing was committed: the sender retries it all.
    (isDatabaseUnavailable(thrown) ? logDatabaseOutage : logError)(
      "POST /api/events: batch not stored",
      thrown,
    );
    return apiError(503, "The events could not be stored just now; nothing was stored. Retry the batch.", {
      "Retry-After": "1",
    });
  }
}

async function receive({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Use POST.", { Allow: "POST" });
  const experiment = await requireApiKey(request);
  const typeProblem = jsonContentTypeProblem(request.headers.get("Content-Type"));
  if (typeProblem) return apiError(415, typeProblem);
  const text = await readBody(request, MAX_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return apiError(400, `The body is not valid JSON (${(error as Error).message}).`);
  }
  const batch =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as { events?: unknown }).events
      : undefined;
  if (!Array.isArray(batch))
    return apiError(400, 'The body must be an object with an "events" list: {"events": [...]}.');
  if (batch.length > MAX_EVENTS)
    return apiError(413, `At most ${MAX_EVENTS} events per request; this one has ${batch.length}.`);
  const result = await ingestEvents(getDb(), experiment, batch, { checkArm: true });
  return json(result, { headers: { "Cache-Control": "no-store" } });
}

export async function loader() {
  return apiError(405, "Use POST to send events.", { Allow: "POST" });
}
