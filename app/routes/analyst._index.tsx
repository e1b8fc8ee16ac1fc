import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { loadOfflineInput } from "../../db/offline";
import { offlineReport, type Estimate } from "../../scripts/metrics/offline";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { FreezeButton } from "~/components/freeze-button";

export const meta: MetaFunction = () => [{ title: "Offline report · Assay" }];

const paramsSchema = z.object({
  B: z.coerce.number().int().min(100).max(10_000).catch(1000),
  seed: z.string().trim().min(1).max(100).catch("assay"),
});

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const params = paramsSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const input = await loadOfflineInput(getDb());
  if (input.systems.length === 0 || input.gold.size === 0) return json({ report: null, params });
  return json({ report: offlineReport(input, { B: params.B, seed: params.seed }), params });
}

const num = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? "—" : v.toFixed(digits));
const ci = (e: Estimate | undefined, digits = 3) => (e?.ci ? `${e.ci.lower.toFixed(digits)} – ${e.ci.upper.toFixed(digits)}` : "—");

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
  const { ks } = report.parameters;
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

      <h2>Hit rate by depth</h2>
      <table aria-label="HR@K by system">
        <thead>
          <tr>
            <th>System</th>
            <th className="num">Proposals</th>
            {ks.map((k) => (
              <th key={k} className="num">
                HR@{k}
              </th>
            ))}
            <th className="num">MRR@10</th>
            <th className="num">AP</th>
            <th className="num">Pool recall</th>
            <th className="num">K_hit median</th>
            <th className="num">K_hit p90</th>
          </tr>
        </thead>
        <tbody>
          {report.systems.map((s) => (
            <tr key={s.key}>
              <th scope="row">{s.name}</th>
              <td className="num">{s.proposals}</td>
              {ks.map((k) => (
                <td key={k} className="num" title={`95% CI ${ci(s.overall.measures[`Success@${k}`])}`}>
                  {num(s.overall.measures[`Success@${k}`].value)}
                  <div className="muted">{ci(s.overall.measures[`Success@${k}`], 2)}</div>
                </td>
              ))}
              <td className="num">
                {num(s.overall.measures["RR@10"]?.value)}
                <div className="muted">{ci(s.overall.measures["RR@10"], 2)}</div>
              </td>
              <td className="num">
                {num(s.overall.measures.AP.value)}
                <div className="muted">{ci(s.overall.measures.AP, 2)}</div>
              </td>
              <td className="num">{num(s.overall.measures.PoolRecall.value)}</td>
              <td className="num">
                {num(s.kHit.median.value, 1)}
                <div className="muted">{ci(s.kHit.median, 1)}</div>
              </td>
              <td className="num">
                {num(s.kHit.p90.value, 1)}
                <div className="muted">{ci(s.kHit.p90, 1)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Charts</h2>
      <div className="side-by-side">
        <Chart
          caption="Hit rate by depth K with its 95% interval, per system: the share of proposals with a committee member in the top K."
          deps={[report]}
          build={(Plot) => {
            const points = report.systems.flatMap((s) => ks.map((k) => ({ system: s.name, k, value: s.overall.measures[`Success@${k}`].value, lower: s.overall.measures[`Success@${k}`].ci?.lower, upper: s.overall.measures[`Success@${k}`].ci?.upper })));
            return {
              title: "HR@K with 95% CI",
              x: { label: "K (candidates shown)" },
              y: { label: "HR@K", domain: [0, 1], grid: true },
              color: { legend: true },
              marks: [Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }), Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" })],
            };
          }}
        />
        <Chart
          caption="K_hit: the rank of the first committee member in each proposal's list, per system."
          deps={[report]}
          build={(Plot) => {
            const values = report.systems.flatMap((s) => s.kHitValues.map((k) => ({ system: s.name, k })));
            return {
              title: "K_hit histogram",
              x: { label: "rank of the first committee member" },
              y: { label: "proposals", grid: true },
              color: { legend: true },
              marks: [Plot.rectY(values, Plot.binX({ y: "count" }, { x: "k", fill: "system", mixBlendMode: "multiply", fillOpacity: 0.6, thresholds: 25 } as Parameters<typeof Plot.binX>[1])), Plot.ruleY([0])],
            };
          }}
        />
        <Chart
          caption="Share of proposals whose first committee member appears by each rank (the K_hit cumulative distribution); where it crosses 90% is the suggested display depth."
          deps={[report]}
          build={(Plot) => {
            const points = report.systems.flatMap((s) => {
              const sorted = [...s.kHitValues].sort((a, b) => a - b);
              return sorted.map((k, i) => ({ system: s.name, k, share: (i + 1) / s.proposals }));
            });
            return {
              title: "K_hit CDF",
              x: { label: "rank" },
              y: { label: "share of proposals", domain: [0, 1], grid: true },
              color: { legend: true },
              marks: [Plot.lineY(points, { x: "k", y: "share", stroke: "system", curve: "step-after" }), Plot.ruleY([0.9], { strokeDasharray: "4 3" })],
            };
          }}
        />
      </div>

      <h2>By subject</h2>
      <ClientTable
        caption="Offline figures by system and subject"
        fileName="offline-by-subject.csv"
        groupable={["system", "subject"]}
        data={report.systems.flatMap((s) =>
          Object.entries(s.subjects).map(([subject, g]) => ({
            system: s.name,
            subject,
            proposals: g.proposals,
            ...Object.fromEntries(["Success@5", "Success@10", "Success@20", "RR@10", "AP", "PoolRecall"].map((m) => [m, g.measures[m]?.value === null || g.measures[m] === undefined ? null : Number(g.measures[m].value!.toFixed(4))])),
          })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "subject", accessorKey: "subject", header: "Subject" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", aggregatedCell: () => null },
          ...["Success@5", "Success@10", "Success@20", "RR@10", "AP", "PoolRecall"].map((m) => ({ id: m, accessorKey: m, header: m === "PoolRecall" ? "Pool recall" : m.replace("Success", "HR"), aggregatedCell: () => null })),
        ]}
      />

      <h2>What to do with it</h2>
      <ul>
        {report.systems.map((s) => (
          <li key={s.key}>
            <strong>{s.name}</strong>:{" "}
            {s.hints.displayDepth !== null ? `show at least ${s.hints.displayDepth} candidates by default (90% of proposals have their first committee member by then)` : "no proposal has a committee member in its list"}
            {s.hints.weakSubjects.length ? `; significantly below its overall hit rate in ${s.hints.weakSubjects.join(", ")}` : ""}
            . Of the proposals missed at 10, {s.failureBreakdown.find((f) => f.k === 10)?.recallFailures ?? "—"} never retrieve a committee member (recall failures) and{" "}
            {s.failureBreakdown.find((f) => f.k === 10)?.rankingFailures ?? "—"} rank them too low (ranking failures).
          </li>
        ))}
      </ul>

      <h2>Pairwise comparison</h2>
      {report.comparisons.length === 0 ? (
        <p className="muted">One system only: nothing to compare.</p>
      ) : (
        <table aria-label="Pairwise comparison">
          <thead>
            <tr>
              <th>Measure</th>
              <th>A</th>
              <th>B</th>
              <th className="num">Mean A</th>
              <th className="num">Mean B</th>
              <th className="num">B − A</th>
              <th className="num">p</th>
              <th className="num">p (Holm)</th>
            </tr>
          </thead>
          <tbody>
            {report.comparisons
              .filter((c) => ["Success@10", "RR@10", "AP", "Rank(g=1)"].includes(c.measure))
              .map((c) => (
                <tr key={`${c.measure}-${c.a}-${c.b}`}>
                  <td>{c.measure}</td>
                  <td>{c.a}</td>
                  <td>{c.b}</td>
                  <td className="num">{num(c.meanA)}</td>
                  <td className="num">{num(c.meanB)}</td>
                  <td className="num">{num(c.difference)}</td>
                  <td className="num">{c.pValue < 1e-4 ? "< 0.0001" : num(c.pValue, 4)}</td>
                  <td className="num">{c.pAdjusted < 1e-4 ? "< 0.0001" : num(c.pAdjusted, 4)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        The full report (every K, subjects, failure cases, Rank(g) distribution) is in the CLI: <code>npm run assay -- offline</code>; admins see the lists side by side on each{" "}
        <Link to="/admin/proposals">proposal page</Link>.
      </p>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
