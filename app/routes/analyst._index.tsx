import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { loadOfflineInput } from "../../db/offline";
import { offlineReport } from "../../scripts/metrics/offline";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { OfflineDashboard } from "~/components/dashboards/offline-dashboard";
import { FreezeButton } from "~/components/freeze-button";

export const meta: MetaFunction = () => [{ title: "Offline report · Assay" }];

const resamplesMessage = "B (resamples) must be a whole number from 100 to 10,000";
const paramsSchema = z.object({
  B: z.coerce.number({ invalid_type_error: resamplesMessage }).int(resamplesMessage).min(100, resamplesMessage).max(10_000, resamplesMessage).default(1000),
  seed: z
    .string()
    .trim()
    .max(100, "seed is longer than 100 characters")
    .transform((s) => s || "assay")
    .default("assay"),
});

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const params = parseQuery(request, paramsSchema);
  const input = await loadOfflineInput(getDb());
  if (input.systems.length === 0 || input.gold.size === 0) return json({ report: null, params });
  return json({ report: offlineReport(input, { B: params.B, seed: params.seed }), params });
}

export default function AnalystHome() {
  const { report, params } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "loading";
  if (!report) {
    return (
      <>
        <h1>Offline report</h1>
        <div className="empty">No systems with lists and gold committees yet. An admin imports them on the Import page.</div>
      </>
    );
  }
  return (
    <>
      <h1>Offline report</h1>
      <p className="muted">
        Tier 1: each system's ranked lists against the historical committees (gold members). Every figure has its 95% bootstrap interval over proposals (B ={" "}
        {report.parameters.B}, seed “{report.parameters.seed}”), so the same data and seed always give the same numbers.
      </p>
      <Form method="get" className="toolbar" aria-label="Bootstrap settings">
        <div>
          <label htmlFor="B">Resamples</label>
          <input id="B" name="B" type="number" min={100} max={10000} step={100} defaultValue={params.B} />
        </div>
        <div>
          <label htmlFor="seed">Seed</label>
          <input id="seed" name="seed" defaultValue={params.seed} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Computing…" : "Recompute"}
        </button>
      </Form>

      <FreezeButton kind="offline" B={params.B} seed={params.seed} />

      <OfflineDashboard report={report} />

      <p className="muted">
        The same report in a terminal: <code>npm run assay -- offline</code>; admins see the lists side by side on each{" "}
        <Link to="/admin/proposals">proposal page</Link>.
      </p>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
