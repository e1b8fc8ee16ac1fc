import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/utils/auth.server";
import { experimentDashboard } from "~/utils/dashboards.server";
import { OnlineDashboard } from "~/components/dashboards/online-dashboard";
import { FreezeButton } from "~/components/freeze-button";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.experiment.name ?? "Experiment"} · Assay` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { experiment, ...rest } = await experimentDashboard(params.key);
  // Analysts read results; the seed and arms are shown, nothing to change.
  return json({ experiment: { key: experiment.key, name: experiment.name, status: experiment.status, arms: experiment.arms.map((a) => ({ key: a.key, system: a.systemKey, weight: a.weight, isControl: a.isControl })) }, ...rest });
}

export default function ExperimentDashboard() {
  const { experiment, report, counts, unknown, daily, control, parameters } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {experiment.name} <span className="badge">{experiment.status}</span>
      </h1>
      <p className="muted">Arms: {experiment.arms.map((a) => `${a.key} = ${a.system} (${a.weight}${a.isControl ? ", control" : ""})`).join("; ")}. Intervals: 95% cluster bootstrap over conveners; p-values: permutation over conveners.</p>
      <FreezeButton kind="online" experiment={experiment.key} B={parameters.B} seed={parameters.seed} />
      <p>
        <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}/clicks`}>Click models: how far down conveners look, and CTR corrected for position</Link>
      </p>
      {!report ? (
        <div className="empty">No events yet.</div>
      ) : (
        <OnlineDashboard report={report} daily={daily} control={control} live={{ unknown, exposedUnits: counts.reduce((n, c) => n + c.exposedUnits, 0) }} />
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
