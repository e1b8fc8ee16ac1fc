import { useEffect } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { clickModelSettings } from "~/data/experiments.server";
import { getExperiment } from "~/data/experiments.server";
import { requireUserWithRole } from "~/security/auth.server";
import { clickModelFit } from "~/results/click-fits.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FreezeButton, keepDashboardAfterFreeze } from "~/components/freeze-button";
import { ClicksDashboard } from "~/components/dashboards/clicks-dashboard";
import { ComputedAt, Computing } from "~/components/computed-at";
import { CLICK_FIT_UNIT } from "~/components/dashboards/clicks/fit";
import { RECOMPUTE_ROLES, recomputeAction } from "~/results/recompute.server";
import { holdsRole } from "../../scripts/inputs/roles";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Click models · ${data?.experiment.name ?? "Experiment"} · Assay` },
];

/** While the models are being fitted, the page asks again this often. */
const POLL_MS = 2_000;

/**
 * The experiment's click models (issue #14): the sessions are read here, the twelve models fitted in the
 * worker pool. A fit not done within a moment is left running and the page says so ("pending"), then
 * asks again until it is (see clickModelFit); meanwhile it shows the last fit finished, if any.
 */
async function loadExperiment(key: string | undefined) {
  const experiment = await getExperiment(getDb(), key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${key}.` }, { status: 404 });
  return experiment;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const experiment = await loadExperiment(params.key);
  const settings = clickModelSettings(experiment);
  const { result: clicks, computedAt, progress, refitting } = await clickModelFit(experiment, settings);
  return json({
    experiment: { key: experiment.key, name: experiment.name },
    settings,
    clicks,
    computedAt,
    progress,
    refitting,
    canRecompute: holdsRole(user.roles, RECOMPUTE_ROLES),
  });
}

/** Recompute: drops the kept fit and starts another; the page then shows its progress until it is done. */
export async function action({ request, params }: ActionFunctionArgs) {
  return recomputeAction(request, async () => {
    const experiment = await loadExperiment(params.key);
    await clickModelFit(experiment, clickModelSettings(experiment), { waitMs: 0, fresh: true });
  });
}

export default function ExperimentClickModels() {
  const { experiment, settings, clicks, computedAt, progress, refitting, canRecompute } =
    useLoaderData<typeof loader>();
  const { revalidate, state } = useRevalidator();
  const running = !clicks || refitting !== null;
  useEffect(() => {
    if (!running || state !== "idle") return;
    const timer = setTimeout(revalidate, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, revalidate]);
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
      <FreezeButton kind="clicks" experiment={experiment.key} B={settings.B} seed={settings.seed} />
      {clicks ? (
        <>
          {refitting ? (
            <Computing
              what="click models"
              why={
                refitting === "new-data" ? "New events or data since this fit: recomputing" : "Recomputing"
              }
              progress={progress}
              unit={CLICK_FIT_UNIT}
            />
          ) : null}
          <ComputedAt at={computedAt} canRecompute={canRecompute} stale={refitting === "new-data"} />
          <ClicksDashboard result={clicks} />
        </>
      ) : (
        <Computing what="the click models" progress={progress} unit={CLICK_FIT_UNIT} />
      )}
    </>
  );
}

// A freeze goes to its snapshot without computing this page again first.
export const shouldRevalidate = keepDashboardAfterFreeze;

export const ErrorBoundary = RouteErrorBoundary;
