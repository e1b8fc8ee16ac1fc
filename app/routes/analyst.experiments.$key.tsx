import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { onlineMetrics } from "../../scripts/metrics/online";
import { requireUserWithRole } from "~/utils/auth.server";
import { UnknownIds } from "~/components/unknown-ids";
import { experimentDashboard } from "~/utils/dashboards.server";
import { Chart } from "~/components/chart";
import { FreezeButton } from "~/components/freeze-button";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.experiment.name ?? "Experiment"} · Assay` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const { experiment, ...rest } = await experimentDashboard(params.key);
  // Analysts read results; the seed and arms are shown, nothing to change.
  return json({ experiment: { key: experiment.key, name: experiment.name, status: experiment.status, arms: experiment.arms.map((a) => ({ key: a.key, system: a.systemKey, weight: a.weight, isControl: a.isControl })) }, ...rest });
}

const labels: Record<string, string> = { ctr: "CTR", adoptionRate: "Adoption rate", meanAdoptedRank: "Mean adopted rank", sessionSuccessRate: "Session success" };
const fmt = (v: number | null | undefined, m: string) => (v === null || v === undefined ? "—" : m === "meanAdoptedRank" ? v.toFixed(2) : `${(v * 100).toFixed(1)}%`);

export default function ExperimentDashboard() {
  const { experiment, report, counts, unknown, daily, control } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {experiment.name} <span className="badge">{experiment.status}</span>
      </h1>
      <p className="muted">Arms: {experiment.arms.map((a) => `${a.key} = ${a.system} (${a.weight}${a.isControl ? ", control" : ""})`).join("; ")}. Intervals: 95% cluster bootstrap over conveners; p-values: permutation over conveners.</p>
      <FreezeButton kind="online" experiment={experiment.key} />
      {!report ? (
        <div className="empty">No events yet.</div>
      ) : (
        <>
          {report.srm?.mismatch ? (
            <p className="notice error" role="alert">
              Sample-ratio mismatch (χ² = {report.srm.chi2.toFixed(2)}, p = {report.srm.pValue.toExponential(2)}): the split of conveners does not fit the configured weights. Do not trust the differences until this is explained.
            </p>
          ) : (
            <p className="notice success">No sample-ratio mismatch (p = {report.srm?.pValue.toPrecision(3) ?? "—"}).</p>
          )}
          {report.excludedUnits > 0 ? (
            <p className={report.multipleExposureWarning ? "notice error" : "notice"} role={report.multipleExposureWarning ? "alert" : undefined}>
              {report.excludedUnits} convener(s) ({(report.excludedShare * 100).toFixed(1)}%) were seen in more than one arm and are excluded from every metric.
            </p>
          ) : null}
          <table aria-label="Arms with intervals">
            <thead>
              <tr>
                <th>Arm</th>
                <th className="num">Conveners</th>
                <th className="num">Sessions</th>
                {onlineMetrics.map((m) => (
                  <th key={m} className="num">
                    {labels[m]} (95% CI)
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Object.entries(report.arms).map(([arm, a]) => (
                <tr key={arm}>
                  <th scope="row">
                    {arm}
                    {arm === control ? " (control)" : ""}
                  </th>
                  <td className="num">{a.units}</td>
                  <td className="num">{a.sessions}</td>
                  {onlineMetrics.map((m) => (
                    <td key={m} className="num">
                      {fmt(a[m], m)}
                      <div className="muted">{a.ci?.[m] ? `${fmt(a.ci[m]!.lower, m)} – ${fmt(a.ci[m]!.upper, m)}` : ""}</div>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="side-by-side">
            <Chart
              caption="Relative lift of each metric, arm vs control, with its 95% interval; an interval clear of zero is a difference the data support."
              deps={[report]}
              build={(Plot) => {
                const rows = report.comparisons.map((c) => ({ label: `${labels[c.metric]} (${c.arm})`, lift: c.relativeLift, lower: c.liftCi?.lower, upper: c.liftCi?.upper }));
                return {
                  title: "Forest plot: lift vs control",
                  marginLeft: 170,
                  x: { label: "relative lift", tickFormat: "+%", grid: true },
                  y: { label: null },
                  marks: [Plot.ruleX([0]), Plot.ruleY(rows, { y: "label", x1: "lower", x2: "upper", strokeWidth: 2 }), Plot.dot(rows, { y: "label", x: "lift", fill: "currentColor", r: 4 })],
                };
              }}
            />
            <Chart
              caption="Adoption rate per arm as it stood at the end of each day (cumulative)."
              deps={[daily]}
              build={(Plot) => {
                const points = daily.flatMap((d) => Object.entries(d.arms).map(([arm, m]) => ({ day: new Date(d.day), arm, value: (m as Record<string, number | null>).adoptionRate })));
                return {
                  title: "Cumulative adoption rate",
                  x: { label: "day", type: "utc" },
                  y: { label: "adoption rate", tickFormat: "%", grid: true },
                  color: { legend: true },
                  marks: [Plot.lineY(points, { x: "day", y: "value", stroke: "arm", marker: "dot" })],
                };
              }}
            />
          </div>
          <h2>Data quality</h2>
          <ul>
            <li>{report.dataQuality.duplicateEvents} retried (duplicate) events counted once</li>
            <li>{report.dataQuality.sessionsWithoutImpression} sessions without an impression (left out of the metrics)</li>
            <li>{report.dataQuality.eventsAboutUnshownCandidates} events about candidates never shown in their session</li>
            <li>
              <UnknownIds unknown={unknown} />
            </li>
            <li>{counts.reduce((n, c) => n + c.exposedUnits, 0)} conveners exposed in all</li>
          </ul>
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
