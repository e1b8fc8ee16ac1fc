import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { getSnapshot, listSnapshots, snapshotLabel, SnapshotError } from "~/data/snapshots.server";
import { dataWindow } from "~/data/results.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SnapshotDashboard } from "~/components/dashboards/snapshot-dashboard";
import { Badge } from "~/components/badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Snapshot ${data?.snapshot.id ?? ""} · Assay` },
];

/** The dashboard drawn from the stored result, never from live data; and what changed since. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const id = parseId(params.id, "snapshot");
  const db = getDb();
  let snapshot;
  try {
    snapshot = await getSnapshot(db, id);
  } catch (error) {
    if (error instanceof SnapshotError) throw json({ message: error.message }, { status: 404 });
    throw error;
  }
  const then = snapshot.dataWindow as Record<string, string | number | null>;
  const now = await dataWindow(db);
  const labels: Record<string, string> = {
    listItems: "list items",
    ratings: "expert grades",
    events: "convener events",
    latestImport: "imports",
    latestRating: "grades",
    latestEvent: "events",
    goldItems: "gold items",
    latestTruth: "gold items",
  };
  // A snapshot records only the part of the window its kind reads: grades made since do not date an offline one.
  const changed = (Object.keys(now) as (keyof typeof now)[])
    .filter((k) => k in then && String(now[k]) !== String(then[k]))
    .map((k) => labels[k]);
  const all = await listSnapshots(db);
  return json({
    subject: all.find((s) => s.id === snapshot.id)?.subject ?? snapshot.kind,
    // Arrived here from a freeze that found this snapshot already made (same parameters, same data).
    existing: new URL(request.url).searchParams.has("existing"),
    snapshot: {
      id: snapshot.id,
      kind: snapshot.kind,
      parameters: snapshot.parameters,
      dataWindow: then,
      sha256: snapshot.sha256,
      createdBy: snapshot.createdByLabel,
      createdAt: snapshot.createdAt,
    },
    result: snapshot.result,
    changed: [...new Set(changed)],
    // Only snapshots of the same kind compare (see compareSnapshots); labelled, never bare ids.
    others: all
      .filter((s) => s.id !== snapshot.id && s.kind === snapshot.kind)
      .map((s) => ({ id: s.id, label: snapshotLabel(s) })),
  });
}

export default function SnapshotPage() {
  const { snapshot, subject, existing, result, changed, others } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/snapshots">← Snapshots</Link>
      </p>
      <h1>
        Snapshot {snapshot.id} <Badge>{snapshot.kind}</Badge>
      </h1>
      <p>
        Of <strong>{subject}</strong>.
      </p>
      {existing ? (
        <p className="notice">
          These parameters were already frozen on the same data: this is that snapshot, not a new one.
        </p>
      ) : null}
      {/* The parameters and the sha256 are long unbroken strings: they wrap rather than widen a phone's page. */}
      <p className="muted" style={{ overflowWrap: "anywhere" }}>
        Frozen {new Date(snapshot.createdAt).toISOString().slice(0, 19).replace("T", " ")} by{" "}
        {snapshot.createdBy}. Parameters: <code>{JSON.stringify(snapshot.parameters)}</code>. sha256{" "}
        <code>{snapshot.sha256}</code>.
      </p>
      {changed.length ? (
        <p className="notice" role="status">
          The data changed since this snapshot ({changed.join(", ")}): these figures are as they were then.
          Freeze a new snapshot to see the current ones.
        </p>
      ) : (
        <p className="notice success" role="status">
          The data has not changed since this snapshot.
        </p>
      )}
      <p>
        Download: <a href={`/api/snapshots/${snapshot.id}.json`}>JSON</a> ·{" "}
        <a href={`/api/snapshots/${snapshot.id}.csv`}>CSV</a>
      </p>
      {others.length ? (
        <Form method="get" action="/analyst/snapshots/compare" className="toolbar">
          <input type="hidden" name="a" value={snapshot.id} />
          <div>
            <label htmlFor="b">Compare with snapshot</label>
            <select id="b" name="b" style={{ maxWidth: "100%" }}>
              {others.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Compare</button>
        </Form>
      ) : null}
      <SnapshotDashboard
        kind={snapshot.kind}
        result={result}
        parameters={snapshot.parameters as Record<string, unknown>}
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
