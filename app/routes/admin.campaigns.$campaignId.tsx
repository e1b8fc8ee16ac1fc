import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CampaignError, campaignProgress, closeCampaign, getCampaign, launchCampaign } from "../../db/campaigns";
import { agreementReport } from "../../scripts/stats/agreement";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.campaign.name ?? "Campaign"} · Assay` }];

async function load(raw: string | undefined) {
  const campaign = /^\d+$/.test(raw ?? "") ? await getCampaign(getDb(), Number(raw)) : null;
  if (!campaign) throw json({ message: `There is no campaign ${raw}.` }, { status: 404 });
  return campaign;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const campaign = await load(params.campaignId);
  const { perExpert, grades } = await campaignProgress(getDb(), campaign.id);
  const judged = grades.filter((g) => g.grade !== null).map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
  const agreement = judged.length ? agreementReport(judged, "ordinal", { B: 1000, seed: `campaign-${campaign.id}` }) : null;
  const names = new Map(perExpert.map((e) => [String(e.expertId), e.name]));
  return json({
    campaign,
    perExpert,
    agreement: agreement && { ...agreement, leaveOneOut: agreement.leaveOneOut.map((l) => ({ ...l, rater: names.get(l.rater) ?? l.rater })) },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const campaign = await load(params.campaignId);
  const intent = (await request.formData()).get("intent");
  try {
    if (intent === "launch") {
      const result = await launchCampaign(getDb(), campaign.id);
      return json({ error: null, done: `Launched: ${result.items} pairs to grade, ${result.assignments} assignments.` });
    }
    if (intent === "close") {
      await closeCampaign(getDb(), campaign.id);
      return json({ error: null, done: "Closed: grades can no longer change." });
    }
    return json({ error: "That request was not understood.", done: null }, { status: 400 });
  } catch (error) {
    if (error instanceof CampaignError) return json({ error: error.message, done: null }, { status: error.status });
    throw error;
  }
}

const num = (v: number | null | undefined, d = 3) => (v === null || v === undefined ? "—" : v.toFixed(d));

export default function CampaignPage() {
  const { campaign, perExpert, agreement } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <p>
        <Link to="/admin/campaigns">← Campaigns</Link>
      </p>
      <h1>
        {campaign.name} <span className="badge">{campaign.status}</span>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.ratersPerProposal} raters per proposal{campaign.deadline ? `, deadline ${new Date(campaign.deadline).toISOString().slice(0, 10)}` : ""}.
      </p>
      {data?.error ? (
        <p className="notice error" role="alert">
          {data.error}
        </p>
      ) : null}
      {data?.done ? (
        <p className="notice success" role="status">
          {data.done}
        </p>
      ) : null}
      <Form method="post" className="toolbar">
        {campaign.status === "draft" ? (
          <button type="submit" name="intent" value="launch" disabled={busy}>
            Launch campaign
          </button>
        ) : null}
        {campaign.status === "running" ? (
          <button type="submit" name="intent" value="close" className="button-danger" disabled={busy}>
            Close campaign
          </button>
        ) : null}
      </Form>
      <h2>Progress per expert</h2>
      {perExpert.length === 0 ? (
        <div className="empty">Nobody is assigned yet: launch the campaign.</div>
      ) : (
        <table aria-label="Progress per expert">
          <thead>
            <tr>
              <th>Expert</th>
              <th className="num">Proposals</th>
              <th className="num">Finished</th>
              <th className="num">Graded</th>
            </tr>
          </thead>
          <tbody>
            {perExpert.map((e) => (
              <tr key={e.expertId}>
                <td>{e.name}</td>
                <td className="num">{e.assignments}</td>
                <td className="num">{e.finished}</td>
                <td className="num">
                  {e.graded} / {e.total}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Agreement</h2>
      {agreement ? (
        <>
          <p>
            Krippendorff's α (ordinal) = <strong>{num(agreement.alpha)}</strong>, 95% CI {agreement.ci ? `${num(agreement.ci.lower)} – ${num(agreement.ci.upper)}` : "—"} over {agreement.items} pairs,{" "}
            {agreement.raters} experts, {agreement.pairableValues} pairable grades.
          </p>
          <table aria-label="Leave-one-out agreement">
            <thead>
              <tr>
                <th>Without expert</th>
                <th className="num">Grades</th>
                <th className="num">α</th>
              </tr>
            </thead>
            <tbody>
              {agreement.leaveOneOut.map((l) => (
                <tr key={l.rater}>
                  <td>{l.rater}</td>
                  <td className="num">{l.ratings}</td>
                  <td className="num">{num(l.alpha)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <div className="empty">No grades yet.</div>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
