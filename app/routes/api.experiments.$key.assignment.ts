import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { assignUnit } from "../../db/experiments";
import { apiError, requireApiKey } from "~/utils/api.server";
import { getDb } from "~/utils/db.server";

/**
 * GET /api/experiments/:key/assignment?unit=U with the experiment's API key: the unit's arm and
 * system, recording the exposure. Outside coverage, or once the experiment is stopped, the control
 * system with `counted: false`.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const experiment = await requireApiKey(request);
  if (experiment.key !== params.key) return apiError(403, `This API key is for experiment ${experiment.key}, not ${params.key}.`);
  const unit = new URL(request.url).searchParams.get("unit")?.trim();
  if (!unit) return apiError(400, "Give the unit: ?unit=<id>.");
  if (unit.length > 200) return apiError(400, "The unit id is longer than 200 characters.");
  const assignment = await assignUnit(getDb(), experiment, unit);
  return json({ experiment: experiment.key, unit, arm: assignment.arm, system: assignment.system, counted: assignment.counted }, { headers: { "Cache-Control": "no-store" } });
}
