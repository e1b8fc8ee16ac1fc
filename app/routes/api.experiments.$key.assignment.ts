import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { assignUnit } from "~/data/experiments.server";
import { apiError, requireApiKey } from "~/security/api.server";
import { getDb } from "~/utils/db.server";
import { parseQuery } from "~/utils/route-params.server";

const unitSchema = z.object({
  unit: z
    .string({ required_error: "give the unit: ?unit=<id>" })
    .trim()
    .min(1, "give the unit: ?unit=<id>")
    .max(200, "the unit id is longer than 200 characters"),
});

/**
 * GET /api/experiments/:key/assignment?unit=U with the experiment's API key: the unit's arm and
 * system, recording the exposure. Outside coverage, or once the experiment is stopped, the control
 * system with `counted: false`.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const experiment = await requireApiKey(request);
  if (experiment.key !== params.key)
    return apiError(403, `This API key is for experiment ${experiment.key}, not ${params.key}.`);
  const { unit } = parseQuery(request, unitSchema, "api");
  const assignment = await assignUnit(getDb(), experiment, unit);
  return json(
    {
      experiment: experiment.key,
      unit,
      arm: assignment.arm,
      system: assignment.system,
      counted: assignment.counted,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
