import { Suspense } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { defer, json } from "@remix-run/node";
import { Await, Link, useAsyncError, useLoaderData } from "@remix-run/react";
import { clickModelSettings, loadExperimentClicksInput } from "../../db/experiment-clicks";
import { getExperiment } from "../../db/experiments";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { runInWorkerPool } from "~/utils/worker-pool.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FreezeButton } from "~/components/freeze-button";
import { ClicksDashboard } from "~/components/dashboards/clicks-dashboard";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Click models · ${data?.experiment.name ?? "Experiment"} · Assay` }];

/**
 * The experiment's click models (issue #14): the sessions are read here, the ten models fitted in the
 * worker pool. The fit is deferred, so the page (heading, freeze button) arrives at once and shows a
 * pending state until the models are fitted.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const db = getDb();
  const experiment = await getExperiment(db, params.key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${params.key}.` }, { status: 404 });
  const settings = clickModelSettings(experiment);
  const clicks = loadExperimentClicksInput(db, experiment, settings).then((input) => runInWorkerPool("experimentClicks", input));
  return defer({ experiment: { key: experiment.key, name: experiment.name }, settings, clicks });
}

export default function ExperimentClickModels() {
  const { experiment, settings, clicks } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}`}>← {experiment.name}</Link>
      </p>
      <h1>Click models · {experiment.name}</h1>
      <p className="muted">
        What conveners’ clicks say beyond CTR: ten click models fitted on this experiment’s sessions and judged on held-out ones, how far down the list conveners look, and each arm’s CTR with the
        position bias taken out.
      </p>
      <FreezeButton kind="clicks" experiment={experiment.key} seed={settings.seed} />
      <Suspense
        fallback={
          <p className="notice" role="status" aria-live="polite">
            Fitting the click models on the experiment’s sessions…
          </p>
        }
      >
        <Await resolve={clicks} errorElement={<FitError />}>
          {(result) => <ClicksDashboard result={result} />}
        </Await>
      </Suspense>
    </>
  );
}

/** The fit failed or the pool was full (503): say so in a sentence, and what to do. */
function FitError() {
  const error = useAsyncError();
  const busy = error instanceof Response && error.status === 503;
  return (
    <p className="notice error" role="alert">
      {busy ? "The server is busy computing other reports; reload the page in a few seconds." : "The click models could not be fitted; reload the page to try again."}
    </p>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
