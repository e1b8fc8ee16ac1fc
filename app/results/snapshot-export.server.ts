import { json } from "@remix-run/node";
import { getSnapshot, snapshotCsv, snapshotDocument, SnapshotError } from "../../db/snapshots/snapshots";
import { requireUserWithRole } from "../security/auth.server";
import { getDb } from "../utils/db.server";
import { parseId } from "../utils/route-params.server";

/** GET /api/snapshots/:id.json and .csv, for analysts and admins. */
export async function snapshotExport(request: Request, rawId: string | undefined, format: "json" | "csv") {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const id = parseId(rawId, "snapshot", "api");
  try {
    const s = await getSnapshot(getDb(), id);
    const body = format === "json" ? JSON.stringify(snapshotDocument(s), null, 2) : snapshotCsv(s);
    return new Response(body, {
      headers: {
        "Content-Type": format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="snapshot-${s.id}.${format}"`,
      },
    });
  } catch (error) {
    if (error instanceof SnapshotError) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}
