import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listExperiments } from "~/data/experiments.server";
import { listCampaigns } from "~/data/campaigns.server";
import { experimentsWithFailingGuardrail } from "~/data/results.server";
import { runInWorkerPool } from "~/results/worker-pool.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { formatCount, plural } from "~/utils/format";
import { Badge } from "~/components/badge";

export const meta: MetaFunction = () => [{ title: "Experiments and campaigns · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const [experiments, campaigns] = await Promise.all([listExperiments(getDb()), listCampaigns(getDb())]);
  const failing = await experimentsWithFailingGuardrail(
    getDb(),
    experiments.filter((e) => e.status !== "draft").map((e) => e.key),
    runInWorkerPool,
  );
  return json({
    experiments: experiments.map((e) => ({ ...e, failingGuardrail: failing.has(e.key) })),
    campaigns: campaigns.filter((c) => c.status !== "draft"),
  });
}

export default function AnalystStudies() {
  const { experiments, campaigns } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Online experiments and expert campaigns</h1>
      <h2>Online experiments (tier 3)</h2>
      {experiments.length === 0 ? (
        <div className="empty">No experiments yet.</div>
      ) : (
        <ul>
          {experiments.map((e) => (
            <li key={e.key}>
              <Link to={`/analyst/experiments/${encodeURIComponent(e.key)}`}>{e.name}</Link>{" "}
              <span className="muted">
                ({e.status}, {formatCount(e.events)} events)
              </span>
              {e.failingGuardrail ? (
                <>
                  {" "}
                  <Badge tone="failing">guardrail failing</Badge>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h2>Expert campaigns (tier 2)</h2>
      {campaigns.length === 0 ? (
        <div className="empty">No launched campaigns yet.</div>
      ) : (
        <ul>
          {campaigns.map((c) => (
            <li key={c.id}>
              <Link to={`/analyst/campaigns/${c.id}`}>{c.name}</Link>{" "}
              <span className="muted">
                ({c.status}, {plural(c.ratings, "grade")})
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
