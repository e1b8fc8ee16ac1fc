import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { Link, useLoaderData } from "@remix-run/react";
import { compareSnapshots, getSnapshot, SnapshotError } from "~/data/snapshots.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { idField } from "../../scripts/inputs/ids";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { formatCount, formatDifference, formatValue } from "~/utils/format";
import { rowMeasure } from "~/utils/metrics-display";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction = () => [{ title: "Compare snapshots · Assay" }];

const choose = "choose two snapshots to compare: ?a=<id>&b=<id>";
const compareSchema = z.object({ a: idField(choose), b: idField(choose) });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { a: idA, b: idB } = parseQuery(request, compareSchema);
  try {
    const [a, b] = await Promise.all([idA, idB].map((id) => getSnapshot(getDb(), id)));
    const rows = compareSnapshots(a, b);
    return json({
      a: { id: a.id, kind: a.kind, sha256: a.sha256 },
      b: { id: b.id, kind: b.kind, sha256: b.sha256 },
      rows,
    });
  } catch (error) {
    // 404 for a missing snapshot, 400 for two of different kinds.
    if (error instanceof SnapshotError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

/** A figure in its unit, and the change between the snapshots as a difference of that unit. */
const shown = (measure: string, v: number | null) => {
  const m = rowMeasure(measure);
  return m.isDifference ? formatDifference(v, m.kind) : formatValue(v, m.kind);
};
const change = (measure: string, v: number | null) => formatDifference(v, rowMeasure(measure).kind);

export default function Compare() {
  const { a, b, rows } = useLoaderData<typeof loader>();
  const differing = rows.filter((r) => r.a !== r.b).length;
  return (
    <>
      <p>
        <Link to={`/analyst/snapshots/${a.id}`}>← Snapshot {a.id}</Link>
      </p>
      <h1>
        Snapshot {a.id} vs {b.id}
      </h1>
      <p className="muted">
        {a.sha256 === b.sha256
          ? "Identical results (same sha256)."
          : `${formatCount(differing)} of ${formatCount(rows.length)} figures differ; they are highlighted.`}
      </p>
      <TableScroll label="Snapshot comparison">
        <table aria-label="Snapshot comparison">
          <thead>
            <tr>
              <th>System or arm</th>
              <th>Group</th>
              <th>Measure</th>
              <th className="num">Snapshot {a.id}</th>
              <th className="num">Snapshot {b.id}</th>
              <th className="num">Difference</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={i}
                className={r.a !== r.b ? "gold" : undefined}
                data-differs={r.a !== r.b ? "yes" : undefined}
              >
                <td>{r.system}</td>
                <td>{r.group}</td>
                <td title={r.measure}>{rowMeasure(r.measure).label}</td>
                <td className="num">{shown(r.measure, r.a)}</td>
                <td className="num">{shown(r.measure, r.b)}</td>
                <td className="num">{r.a !== null && r.b !== null ? change(r.measure, r.b - r.a) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
