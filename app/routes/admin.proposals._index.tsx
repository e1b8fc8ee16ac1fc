import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { listProposals } from "~/data/catalog.server";
import { proposalSortable } from "../../scripts/inputs/sortable";
import { ServerTable } from "~/components/data-table";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { pageCursors, parseListing } from "~/utils/listing";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Proposals · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { after, before, ...listing } = parseListing(request, proposalSortable, "externalId");
  const { rows, total, cursors } = await listProposals(getDb(), { ...listing, after, before });
  return json({ listing, rows, total, cursors: pageCursors(listing, total, cursors) });
}

type Row = Awaited<ReturnType<typeof listProposals>>["rows"][number];
const columns: ColumnDef<Row, unknown>[] = [
  {
    id: "externalId",
    header: "ID",
    meta: { id: true },
    cell: ({ row }) => (
      <Link to={`/admin/proposals/${encodeURIComponent(row.original.externalId)}`}>
        {row.original.externalId}
      </Link>
    ),
  },
  { id: "title", header: "Title", accessorKey: "title" },
  { id: "subject", header: "Subject", cell: ({ row }) => row.original.subject ?? "—" },
  { id: "lists", header: "Lists", accessorKey: "lists", meta: { numeric: true } },
  { id: "gold", header: "Gold members", accessorKey: "gold", meta: { numeric: true } },
];

export default function Proposals() {
  const { listing, rows, total, cursors } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Proposals</h1>
      <ServerTable
        columns={columns}
        rows={rows}
        total={total}
        {...listing}
        cursors={cursors}
        sortable={[...proposalSortable]}
        searchLabel="Search id, title or keyword"
        caption="Proposals"
        empty={
          listing.q
            ? `No proposal matches “${listing.q}”.`
            : "No proposals yet: import some on the Import page."
        }
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
