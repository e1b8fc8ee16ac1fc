import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { listRankedLists } from "~/data/catalog.server";
import { listSortable } from "../../scripts/inputs/sortable";
import { ServerTable } from "~/components/data-table";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { pageCursors, parseListing } from "~/utils/listing";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Ranked lists · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { after, before, ...listing } = parseListing(request, listSortable, "system");
  const { rows, total, cursors } = await listRankedLists(getDb(), { ...listing, after, before });
  return json({ listing, rows, total, cursors: pageCursors(listing, total, cursors) });
}

type Row = SerializeFrom<typeof loader>["rows"][number];
const columns: ColumnDef<Row, unknown>[] = [
  { id: "system", header: "System", accessorKey: "system" },
  {
    id: "proposal",
    header: "Proposal",
    meta: { id: true },
    cell: ({ row }) => (
      <Link
        to={`/admin/proposals/${encodeURIComponent(row.original.proposal)}?variant=${encodeURIComponent(row.original.variant)}`}
        title={row.original.title}
      >
        {row.original.proposal}
      </Link>
    ),
  },
  { id: "variant", header: "Variant", accessorKey: "variant" },
  { id: "items", header: "Items", accessorKey: "items", meta: { numeric: true } },
  { id: "goldFound", header: "Gold members in list", accessorKey: "goldFound", meta: { numeric: true } },
  {
    id: "importedAt",
    header: "Imported",
    cell: ({ row }) => new Date(row.original.importedAt).toISOString().slice(0, 16).replace("T", " "),
  },
];

export default function Lists() {
  const { listing, rows, total, cursors } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Ranked lists</h1>
      <ServerTable
        columns={columns}
        rows={rows}
        total={total}
        {...listing}
        cursors={cursors}
        sortable={[...listSortable]}
        searchLabel="Search system, proposal or variant"
        caption="Lists"
        empty={
          listing.q
            ? `No list matches “${listing.q}”.`
            : "No lists yet: import systems and their lists on the Import page."
        }
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
