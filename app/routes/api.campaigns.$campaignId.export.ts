import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { CampaignError } from "../../db/campaigns";
import { exportCampaign, type ExportFormat } from "../../db/campaign-data";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";

/** GET /api/campaigns/:id/export?format=qrels|csv|json, for admins and analysts. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["admin", "analyst"]);
  const format = new URL(request.url).searchParams.get("format") ?? "qrels";
  if (!["qrels", "csv", "json"].includes(format)) return json({ error: `format must be qrels, csv or json, not ${format}.` }, { status: 400 });
  const id = /^\d+$/.test(params.campaignId ?? "") ? Number(params.campaignId) : 0;
  try {
    const file = await exportCampaign(getDb(), id, format as ExportFormat);
    return new Response(file.body, { headers: { "Content-Type": file.contentType, "Content-Disposition": `attachment; filename="${file.fileName}"`, "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof CampaignError) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}
