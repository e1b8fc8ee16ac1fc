import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUserWithRole } from "~/security/auth.server";
import { snapshotExport } from "~/results/snapshot-export.server";

/** GET /api/snapshots/:id.json or :id.csv (a route segment is wholly dynamic, so the id and format are read here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const match = /^(\d+)\.(json|csv)$/.exec(params.file ?? "");
  if (!match)
    return json({ error: "Ask for /api/snapshots/<id>.json or /api/snapshots/<id>.csv." }, { status: 404 });
  return snapshotExport(request, match[1], match[2] as "json" | "csv");
}
