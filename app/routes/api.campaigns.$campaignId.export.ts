import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { CampaignError } from "~/data/campaigns.server";
import { exportCampaign } from "~/data/campaigns.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { parseId, parseQuery } from "~/utils/route-params.server";
import { runInWorkerPool } from "~/results/worker-pool.server";
import { aggregationMethods, type AggregationMethod } from "../../scripts/judgement/aggregate";

const exportSchema = z.object({
  format: z
    .enum(["qrels", "csv", "json"], { errorMap: () => ({ message: "format must be qrels, csv or json" }) })
    .default("qrels"),
  aggregate: z
    .enum(aggregationMethods as [AggregationMethod, ...AggregationMethod[]], {
      errorMap: () => ({ message: `aggregate must be ${aggregationMethods.join(", ")}` }),
    })
    .default("median"),
});

/** GET /api/campaigns/:id/export?format=qrels|csv|json&aggregate=median|majority|mean|dawid-skene, for admins and analysts. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["admin", "analyst"]);
  const { format, aggregate } = parseQuery(request, exportSchema, "api");
  const id = parseId(params.campaignId, "campaign", "api");
  try {
    const file = await exportCampaign(getDb(), id, format, { aggregate, run: runInWorkerPool });
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (error instanceof CampaignError) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}
