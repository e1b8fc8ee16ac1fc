import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/security/auth.server";
import { campaignDashboard } from "~/results/dashboards.server";
import { FreezeButton } from "~/components/freeze-button";
import { CampaignExports } from "~/components/campaign-exports";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ExpertDashboard } from "~/components/dashboards/expert-dashboard";
import { GoldFigures } from "~/components/gold-figures";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campaign.name ?? "Campaign"} · Assay` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { campaign, results, agreement, curve, queue, parameters, gold } = await campaignDashboard(
    params.campaignId,
  );
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
    disagreements: queue.length,
    parameters,
    gold,
  });
}

export default function CampaignDashboard() {
  const { campaign, results, agreement, curve, disagreements, parameters, gold } =
    useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {campaign.name} <span className="badge">{campaign.status}</span>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.raters} raters per proposal; labels are the median grade
        (adjudicated pairs: the final grade); {disagreements} pairs are in the disagreement queue.
      </p>
      <FreezeButton kind="expert" campaign={campaign.id} B={parameters.B} seed={parameters.seed} />
      {campaign.status !== "draft" ? <CampaignExports campaignId={campaign.id} /> : null}
      {!results ? (
        <div className="empty">No grades yet.</div>
      ) : (
        <ExpertDashboard results={results} agreement={agreement} curve={curve} />
      )}
      {campaign.status !== "draft" ? (
        <GoldFigures
          gold={gold}
          empty="No gold items: an admin imports a truth file or attaches known grades on the campaign's admin page."
        />
      ) : null}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
