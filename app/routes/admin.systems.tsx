import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listSystems } from "~/data/catalog.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction = () => [{ title: "Systems · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ systems: await listSystems(getDb()) });
}

export default function Systems() {
  const { systems } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Systems and their ranked lists</h1>
      {systems.length === 0 ? (
        <div className="empty">No systems yet: import a systems file, then its ranked lists.</div>
      ) : (
        <TableScroll label="Systems">
          <table>
            <thead>
              <tr>
                <th>Key</th>
                <th>Name</th>
                <th>Version</th>
                <th title="The offline protocol its lists answer (given m, all but 1) and the split's seed">
                  Protocol
                </th>
                <th className="num">Proposals</th>
                <th className="num">Lists</th>
                <th className="num">Query variants</th>
                <th className="num">List items</th>
              </tr>
            </thead>
            <tbody>
              {systems.map((s) => (
                <tr key={s.id}>
                  <td>{s.key}</td>
                  <td>{s.name}</td>
                  <td>{s.version || "—"}</td>
                  <td>{s.protocol ?? "—"}</td>
                  <td className="num">{s.proposals}</td>
                  <td className="num">{s.lists}</td>
                  <td className="num">{s.variants}</td>
                  <td className="num">{s.items.toLocaleString("en")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
