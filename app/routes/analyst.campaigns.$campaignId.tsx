import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/security/auth.server";
import { campaignDashboard } from "~/results/dashboards.server";
import { FreezeButton, keepDashboardAfterFreeze } from "~/components/freeze-button";
import { CampaignExports } from "~/components/campaign-exports";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ExpertDashboard } from "~/components/dashboards/expert-dashboard";
import { GoldFigures } from "~/components/gold-figures";
import { ComputedAt } from "~/components/computed-at";
import { GradesByGroup } from "~/components/dashboards/expert/grades-by-group";
import { RECOMPUTE_ROLES, recomputeAction } from "~/results/recompute.server";
import { holdsRole } from "../../scripts/inputs/roles";
import { Badge, statusTone } from "~/components/badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campaign.name ?? "Campaign"} · Assay` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const {
    campaign,
    results,
    agreement,
    curve,
    queue,
    parameters,
    gold,
    goldProgress,
    goldStale,
    computedAt,
    gradesByGroup,
  } = await campaignDashboard(params.campaignId);
  return json({
    campaign: {
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      poolDepth: campaign.poolDepth,
      raters: campaign.ratersPerProposal,
    },
    results,
    agreement,
    curve,
    gradesByGroup,
    disagreements: queue.length,
    parameters,
    gold,
    goldProgress,
    goldStale,
    computedAt,
    canRecompute: holdsRole(user.roles, RECOMPUTE_ROLES),
  });
}

/** Recompute: the campaign's figures and gold figures anew (the gold ones go on in the background). */
export async function action({ request, params }: ActionFunctionArgs) {
  return recomputeAction(request, () => campaignDashboard(params.campaignId, { fresh: true, goldWaitMs: 0 }));
}

export default function CampaignDashboard() {
  const { campaign, results, agreement, curve, disagreements, parameters, gold, goldProgress, goldStale } =
    useLoaderData<typeof loader>();
  const { computedAt, canRecompute, gradesByGroup } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {campaign.name} <Badge tone={statusTone(campaign.status)}>{campaign.status}</Badge>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.raters} raters per proposal; labels are the median grade
        (adjudicated pairs: the final grade); {disagreements} pairs are in the disagreement queue.
      </p>
      <FreezeButton kind="expert" campaign={campaign.id} B={parameters.B} seed={parameters.seed} />
      {campaign.status !== "draft" ? <CampaignExports campaignId={campaign.id} /> : null}
      {results ? <ComputedAt at={computedAt} canRecompute={canRecompute} /> : null}
      {!results ? (
        <div className="empty">No grades yet.</div>
      ) : (
        <ExpertDashboard results={results} agreement={agreement} curve={curve} />
      )}
      {gradesByGroup ? <GradesByGroup figures={gradesByGroup} /> : null}
      {campaign.status !== "draft" ? (
        <GoldFigures
          gold={gold}
          progress={goldProgress}
          stale={goldStale}
          empty="No gold items: an admin imports a truth file or attaches known grades on the campaign's admin page."
        />
      ) : null}
    </>
  );
}

// A freeze goes to its snapshot without computing this page again first.
export const shouldRevalidate = keepDashboardAfterFreeze;

export const ErrorBoundary = RouteErrorBoundary;
