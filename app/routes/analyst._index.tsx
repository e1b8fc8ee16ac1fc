import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { offlineResult } from "~/data/results.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { runInWorkerPool } from "~/results/worker-pool.server";
import { bootstrapParams, MAX_RESAMPLES, MIN_RESAMPLES } from "~/schemas/bootstrap";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { OfflineDashboard } from "~/components/dashboards/offline-dashboard";
import { FreezeButton, keepDashboardAfterFreeze } from "~/components/freeze-button";
import { formatCount } from "~/utils/format";
import { offlineViewParams } from "~/schemas/offline-view";
import { OfflineViewFields } from "~/components/offline-view-fields";
import { Fairness } from "~/components/dashboards/offline/fairness";
import { useRoles } from "~/security/roles";
import { ComputedAt } from "~/components/computed-at";
import { RECOMPUTE_ROLES, recomputeAction } from "~/results/recompute.server";
import { holdsRole } from "../../scripts/inputs/roles";
import { fairnessTargetParams, targetsText } from "~/schemas/fairness-targets";

export const meta: MetaFunction = () => [{ title: "Offline report · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const params = bootstrapParams(request);
  const view = offlineViewParams(request);
  // Kept by the result service: a second view of unchanged data is not computed again.
  // The fairness section: the same K grid, B and seed as the report, on the systems it shows, read in
  // the report's transaction.
  const targets = fairnessTargetParams(request);
  const {
    result: report,
    computedAt,
    fairness,
  } = await offlineResult(getDb(), { ...params, view }, runInWorkerPool, { fairness: { targets } });
  return json({
    report,
    params,
    view,
    fairness,
    computedAt: computedAt?.toISOString() ?? null,
    canRecompute: holdsRole(user.roles, RECOMPUTE_ROLES),
  });
}

/** Recompute: the report with the settings in the URL (B, seed, view), anew. */
export async function action({ request }: ActionFunctionArgs) {
  return recomputeAction(request, () =>
    offlineResult(
      getDb(),
      { ...bootstrapParams(request), view: offlineViewParams(request) },
      runInWorkerPool,
      { fresh: true },
    ),
  );
}

export default function AnalystHome() {
  const { report, params, view, fairness, computedAt, canRecompute } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "loading";
  const roles = useRoles();
  if (!report) {
    return (
      <>
        <h1>Offline report</h1>
        <div className="empty">
          No systems with lists and gold committees yet. An admin imports them on the Import page.
        </div>
      </>
    );
  }
  return (
    <>
      <h1>Offline report</h1>
      <p className="muted">
        Tier 1: each system's ranked lists against the historical committees (gold members). Every figure has
        its 95% bootstrap interval over proposals (B = {formatCount(report.parameters.B)}, seed “
        {report.parameters.seed}”), so the same data and seed always give the same numbers.
      </p>
      <Form method="get" className="toolbar" aria-label="Bootstrap settings">
        <div>
          <label htmlFor="B">Resamples</label>
          <input
            id="B"
            name="B"
            type="number"
            min={MIN_RESAMPLES}
            max={MAX_RESAMPLES}
            step={100}
            defaultValue={params.B}
          />
        </div>
        <div>
          <label htmlFor="seed">Seed</label>
          <input id="seed" name="seed" defaultValue={params.seed} />
        </div>
        <OfflineViewFields view={view} />
        <button type="submit" disabled={busy}>
          {busy ? "Computing…" : "Apply"}
        </button>
      </Form>
      <ComputedAt at={computedAt} canRecompute={canRecompute} />

      <FreezeButton
        kind="offline"
        B={report.parameters.B}
        seed={String(report.parameters.seed)}
        ks={report.parameters.ks}
        view={view}
        targets={fairness ? targetsText(fairness.parameters.targets) : undefined}
      />

      <OfflineDashboard report={report} />
      {fairness ? (
        <Fairness
          report={fairness.report}
          ks={fairness.parameters.ks}
          minGroup={fairness.parameters.minGroup}
          targets={targetsText(fairness.parameters.targets)}
        />
      ) : (
        <p className="muted">
          Fairness and diversity: no candidate has a group attribute yet (import the <code>attributes</code>{" "}
          entity).
        </p>
      )}

      <p className="muted">
        The same report in a terminal: <code>npm run assay -- offline</code>
        {roles.includes("admin") ? (
          <>
            ; the lists side by side are on each <Link to="/admin/proposals">proposal page</Link>
          </>
        ) : null}
        .
      </p>
    </>
  );
}

// A freeze goes to its snapshot without computing this page again first.
export const shouldRevalidate = keepDashboardAfterFreeze;

export const ErrorBoundary = RouteErrorBoundary;
