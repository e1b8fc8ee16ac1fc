import { useEffect } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { clickModelSettings } from "~/data/experiments.server";
import { getExperiment } from "~/data/experiments.server";
import { requireUserWithRole } from "~/security/auth.server";
import { clickModelFit } from "~/results/click-fits.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FreezeButton } from "~/components/freeze-button";
import { ClicksDashboard } from "~/components/dashboards/clicks-dashboard";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Click models · ${data?.experiment.name ?? "Experiment"} · Assay` },
];

/** While the models are being fitted, the page asks again this often. */
const POLL_MS = 2_000;

/**
 * The experiment's click models (issue #14): the sessions are read here, the twelve models fitted in the
 * worker pool. A fit not done within a moment is left running and the page says so ("pending"), then
 * asks again until it is (see clickModelFit).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const experiment = await getExperiment(getDb(), params.key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${params.key}.` }, { status: 404 });
  const settings = clickModelSettings(experiment);
  const clicks = await clickModelFit(experiment, settings);
  return json({ experiment: { key: experiment.key, name: experiment.name }, settings, clicks });
}

export default function ExperimentClickModels() {
  const { experiment, settings, clicks } = useLoaderData<typeof loader>();
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (clicks || state !== "idle") return;
    const timer = setTimeout(revalidate, POLL_MS);
    return () => clearTimeout(timer);
  }, [clicks, state, revalidate]);
  return (
    <>
      <p>
        <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}`}>← {experiment.name}</Link>
      </p>
      <h1>Click models · {experiment.name}</h1>
      <p className="muted">
        What conveners’ clicks say beyond CTR: twelve click models (TCM with each convener’s work on a
        proposal as one task) fitted on this experiment’s sessions and judged on held-out ones, how far down
        the list conveners look, and each arm’s CTR with the position bias taken out.
      </p>
      <FreezeButton kind="clicks" experiment={experiment.key} seed={settings.seed} />
      {clicks ? (
        <ClicksDashboard result={clicks} />
      ) : (
        <p className="notice" role="status" aria-live="polite">
          Fitting the click models on the experiment’s sessions… This page shows them when they are ready (or{" "}
          <Link to=".">reload it</Link>).
        </p>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
