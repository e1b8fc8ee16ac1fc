import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { compareSnapshots, getSnapshot, SnapshotError } from "~/data/snapshots.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { idField } from "../../scripts/inputs/ids";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { formatCount, plural } from "~/utils/format";
import { FigureComparison, ParameterComparison } from "~/components/snapshots/comparison";

export const meta: MetaFunction = () => [{ title: "Compare snapshots · Assay" }];

const choose = "choose two snapshots to compare: ?a=<id>&b=<id>";
const compareSchema = z.object({
  a: idField(choose),
  b: idField(choose),
  all: z.enum(["1"], { message: "all must be 1 (every figure) or left out" }).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { a: idA, b: idB } = parseQuery(request, compareSchema);
  try {
    const [a, b] = await Promise.all([idA, idB].map((id) => getSnapshot(getDb(), id)));
    return json({
      a: { id: a.id, kind: a.kind, sha256: a.sha256 },
      b: { id: b.id, kind: b.kind, sha256: b.sha256 },
      ...compareSnapshots(a, b),
    });
  } catch (error) {
    // 404 for a missing snapshot, 400 for two of different kinds.
    if (error instanceof SnapshotError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

export default function Compare() {
  const { a, b, parameters, figures } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  // "Differing only" is the default: the whole list is one link away (and a plain GET, so it can be shared).
  const differingOnly = params.get("all") !== "1";
  const ids: [number, number] = [a.id, b.id];
  const differing = figures.filter((r) => r.changes.length > 0);
  const inInterval = differing.filter((r) => r.changes.includes("interval") && !r.changes.includes("value"));
  const toggle = new URLSearchParams(params);
  if (differingOnly) toggle.set("all", "1");
  else toggle.delete("all");
  return (
    <>
      <p>
        <Link to={`/analyst/snapshots/${a.id}`}>← Snapshot {a.id}</Link>
      </p>
      <h1>
        Snapshot {a.id} vs {b.id}
      </h1>
      <p className="muted" role="status">
        {a.sha256 === b.sha256
          ? "Identical results (same sha256)."
          : `${formatCount(differing.length)} of ${plural(figures.length, "figure")} differ` +
            (inInterval.length ? ` (${formatCount(inInterval.length)} only in their interval)` : "") +
            "."}{" "}
        <Link to={`?${toggle}`} replace>
          {differingOnly
            ? `Show all ${plural(figures.length, "figure")} and parameters`
            : "Show differing only"}
        </Link>
      </p>
      <ParameterComparison parameters={parameters} ids={ids} differingOnly={differingOnly} />
      <h2>Figures{differingOnly ? " that differ" : ""}, by section</h2>
      <FigureComparison figures={figures} ids={ids} differingOnly={differingOnly} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
