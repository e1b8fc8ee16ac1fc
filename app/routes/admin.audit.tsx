import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { AUDIT_PAGE_SIZE, auditFilterChoices, listAuditEntries } from "~/data/audit.server";
import { parseAuditFilter, type AuditFilter } from "../../scripts/inputs/audit";
import { ServerTable } from "~/components/data-table";
import { ActionNotice } from "~/components/form-parts";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { cursorSchema, pageCursors } from "~/utils/listing";
import { parseQuery } from "~/utils/route-params.server";
import { idClass } from "~/utils/id-like";

export const meta: MetaFunction = () => [{ title: "Audit log · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const db = getDb();
  const parsed = parseAuditFilter(new URL(request.url));
  const cursor = parseQuery(request, cursorSchema);
  const choices = await auditFilterChoices(db);
  if (!parsed.ok) {
    const none: Awaited<ReturnType<typeof listAuditEntries>> = {
      rows: [],
      total: 0,
      page: 1,
      size: AUDIT_PAGE_SIZE,
      cursors: { first: null, last: null },
    };
    return json(
      {
        error: parsed.message,
        filter: {} as AuditFilter,
        choices,
        ...none,
        cursors: { prev: null, next: null },
      },
      { status: 400 },
    );
  }
  const { cursors, ...listing } = await listAuditEntries(db, { ...parsed.filter, ...cursor });
  return json({
    error: null,
    filter: parsed.filter,
    choices,
    ...listing,
    cursors: pageCursors(listing, listing.total, cursors),
  });
}

/** The CSV export of the same filters (every page of them). */
function exportHref(filter: AuditFilter) {
  const params = new URLSearchParams();
  for (const key of ["who", "what", "from", "to"] as const) if (filter[key]) params.set(key, filter[key]!);
  const query = params.toString();
  return `/admin/audit.csv${query ? `?${query}` : ""}`;
}

const detailText = (detail: unknown) =>
  Object.entries((detail ?? {}) as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${v !== null && typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join("; ");

/** "experiment reviewer-ranker-v2": the kind wraps as words, the id stays on one line. */
function AuditTarget({ target }: { target: string | null }) {
  const [kind, ...rest] = (target ?? "").split(" ");
  const id = rest.join(" ");
  if (!idClass(id)) return <>{target}</>;
  return (
    <>
      {kind} <span className="id">{id}</span>
    </>
  );
}

type Row = SerializeFrom<typeof loader>["rows"][number];
const columns: ColumnDef<Row, unknown>[] = [
  {
    id: "at",
    header: "When (UTC)",
    cell: ({ row }) => new Date(row.original.at).toISOString().slice(0, 19).replace("T", " "),
  },
  { id: "actor", header: "Who", accessorKey: "actor" },
  { id: "action", header: "What", cell: ({ row }) => <code>{row.original.action}</code> },
  { id: "target", header: "On", cell: ({ row }) => <AuditTarget target={row.original.target} /> },
  {
    id: "detail",
    header: "Detail",
    cell: ({ row }) => <span className="muted">{detailText(row.original.detail)}</span>,
  },
];

export default function AuditLog() {
  const { error, filter, choices, rows, total, page, size, cursors } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const filtered = Boolean(filter.who || filter.what || filter.from || filter.to);
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">
        Every admin and analyst write, and the CLI's, as it happened. The database refuses to change or delete
        an entry.
      </p>
      <Form method="get" className="toolbar" aria-label="Filter the audit log">
        <div>
          <label htmlFor="who">Who</label>
          <select id="who" name="who" defaultValue={params.get("who") ?? ""}>
            <option value="">Anyone</option>
            {choices.actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="what">What</label>
          <select id="what" name="what" defaultValue={params.get("what") ?? ""}>
            <option value="">Any action</option>
            {choices.actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from">From (UTC day)</label>
          <input id="from" name="from" type="date" defaultValue={params.get("from") ?? ""} />
        </div>
        <div>
          <label htmlFor="to">To (UTC day)</label>
          <input id="to" name="to" type="date" defaultValue={params.get("to") ?? ""} />
        </div>
        <button type="submit">Filter</button>
        {filtered || error ? (
          <Link to="/admin/audit" className="button button-secondary">
            Clear
          </Link>
        ) : null}
        {error ? null : (
          <a href={exportHref(filter)} className="button button-secondary" download>
            Export CSV
          </a>
        )}
      </Form>
      <ActionNotice error={error} />
      <ServerTable
        columns={columns}
        rows={rows}
        total={total}
        page={page}
        size={size}
        cursors={cursors}
        sort="at"
        dir="desc"
        sortable={[]}
        caption="Entries, newest first"
        empty={
          error
            ? "Fix the filters above to see entries."
            : filtered
              ? "No entry matches these filters."
              : "No entries yet: writes by admins, analysts and the CLI appear here."
        }
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
