import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/utils/auth.server";
import { campaignDashboard } from "~/utils/dashboards.server";
import { Chart } from "~/components/chart";
import { FreezeButton } from "~/components/freeze-button";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ComparisonSentence, LearningCurveTable, SubjectNdcgTable, SystemResultsTable } from "~/components/campaign-tables";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.campaign.name ?? "Campaign"} · Assay` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { campaign, results, agreement, curve, queue } = await campaignDashboard(params.campaignId);
  return json({ campaign: { id: campaign.id, name: campaign.name, status: campaign.status, poolDepth: campaign.poolDepth, raters: campaign.ratersPerProposal }, results, agreement, curve, disagreements: queue.length });
}

const num = (v: number | null | undefined, d = 3) => (v === null || v === undefined ? "—" : v.toFixed(d));

export default function CampaignDashboard() {
  const { campaign, results, agreement, curve, disagreements } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {campaign.name} <span className="badge">{campaign.status}</span>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.raters} raters per proposal; labels are the median grade (adjudicated pairs: the final grade); {disagreements} pairs are in the disagreement queue.
      </p>
      <FreezeButton kind="expert" campaign={campaign.id} />
      {!results ? (
        <div className="empty">No grades yet.</div>
      ) : (
        <>
          <SystemResultsTable results={results} label="nDCG by system" />
          <div className="side-by-side">
            <Chart
              caption="nDCG@K per system with its 95% interval, on the experts' aggregated labels."
              deps={[results]}
              build={(Plot) => {
                const points = results.systems.flatMap((s) => results.ks.map((k) => ({ system: s.key, k, value: s.overall.measures[`nDCG@${k}`].value, lower: s.overall.measures[`nDCG@${k}`].ci?.lower, upper: s.overall.measures[`nDCG@${k}`].ci?.upper })));
                return {
                  title: "nDCG@K with 95% CI",
                  x: { label: "K" },
                  y: { label: "nDCG@K", domain: [0, 1], grid: true },
                  color: { legend: true },
                  marks: [Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }), Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" })],
                };
              }}
            />
            {agreement ? (
              <Chart
                caption={`Agreement without each expert (leave-one-out α); the line is α with everyone, ${num(agreement.alpha)}. An expert whose removal raises α disagrees most with the others.`}
                deps={[agreement]}
                build={(Plot) => ({
                  title: "Agreement per expert",
                  marginLeft: 120,
                  x: { label: "Krippendorff's α without this expert", domain: [0, 1], grid: true },
                  y: { label: null },
                  marks: [Plot.barX(agreement.leaveOneOut, { y: "rater", x: "alpha", fill: "#0b5cad" }), Plot.ruleX([agreement.alpha ?? 0], { stroke: "#b42318", strokeDasharray: "4 3" })],
                })}
              />
            ) : null}
          </div>
          {agreement ? (
            <p>
              Krippendorff's α (ordinal) = {num(agreement.alpha)}, 95% CI {agreement.ci ? `${num(agreement.ci.lower)} – ${num(agreement.ci.upper)}` : "—"}; {agreement.items} pairs, {agreement.raters} experts.
            </p>
          ) : null}
          <ComparisonSentence results={results} />
          <h2>By subject (nDCG@10)</h2>
          <SubjectNdcgTable results={results} />
          <h2>Label learning curve</h2>
          <LearningCurveTable curve={curve} />
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
