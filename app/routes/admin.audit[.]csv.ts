import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditCsv, auditEntriesForExport } from "~/data/audit.server";
import { parseAuditFilter } from "../../scripts/inputs/audit";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";

/** GET /admin/audit.csv?who=&what=&from=&to=: every entry the same filters show on /admin/audit, as CSV. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const parsed = parseAuditFilter(new URL(request.url));
  if (!parsed.ok)
    return new Response(parsed.message, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const body = auditCsv(await auditEntriesForExport(getDb(), parsed.filter));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="assay-audit-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
