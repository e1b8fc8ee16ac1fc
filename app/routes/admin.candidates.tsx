import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { listCandidates } from "~/data/catalog.server";
import { candidateSortable } from "../../scripts/inputs/sortable";
import { ServerTable } from "~/components/data-table";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { pageCursors, parseListing } from "~/utils/listing";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Candidates · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { after, before, ...listing } = parseListing(request, candidateSortable, "externalId");
  const { rows, total, cursors } = await listCandidates(getDb(), { ...listing, after, before });
  return json({ listing, rows, total, cursors: pageCursors(listing, total, cursors) });
}

type Row = Awaited<ReturnType<typeof listCandidates>>["rows"][number];
const columns: ColumnDef<Row, unknown>[] = [
  { id: "externalId", header: "ID", accessorKey: "externalId" },
  { id: "name", header: "Name", accessorKey: "name" },
  { id: "affiliation", header: "Affiliation", accessorKey: "affiliation" },
  { id: "keywords", header: "Expertise", cell: ({ row }) => row.original.keywords.join(", ") },
  { id: "listed", header: "In lists", accessorKey: "listed", meta: { numeric: true } },
];

export default function Candidates() {
  const { listing, rows, total, cursors } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Candidates</h1>
      <ServerTable
        columns={columns}
        rows={rows}
        total={total}
        {...listing}
        cursors={cursors}
        sortable={[...candidateSortable]}
        searchLabel="Search id, name, affiliation or expertise"
        caption="Candidates"
        empty={
          listing.q
            ? `No candidate matches “${listing.q}”.`
            : "No candidates yet: import some on the Import page."
        }
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
