import type { OfflineReport, Estimate } from "../../../scripts/metrics/offline";
import type { Json } from "~/utils/json-type";
import { resultRows } from "~/utils/result-rows";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { AllFiguresTable } from "~/components/all-figures-table";

const num = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? "—" : v.toFixed(digits));
const ci = (e: Json<Estimate> | undefined, digits = 3) => (e?.ci ? `${e.ci.lower.toFixed(digits)} – ${e.ci.upper.toFixed(digits)}` : "—");
const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v.toFixed(4)));

/** The comparisons most decisions rest on come first; the rest follow in the report's order. */
const KEY_MEASURES = ["Success@10", "RR@10", "AP", "Rank(g=1)"];
const keyFirst = (measure: string) => (KEY_MEASURES.includes(measure) ? KEY_MEASURES.indexOf(measure) : KEY_MEASURES.length);

/** The measure families drawn against K, each in its own panel. */
const families = [
  { label: "HR@K", name: (k: number) => `Success@${k}` },
  { label: "MRR@K", name: (k: number) => `RR@${k}` },
  { label: "Success(g=2)@K", name: (k: number) => `Success(g=2)@${k}` },
  { label: "Success(g=3)@K", name: (k: number) => `Success(g=3)@${k}` },
  { label: "Coverage@K", name: (k: number) => `Coverage@${k}` },
];

/**
 * The tier-1 dashboard drawn from an offline report: the live page computes the report, an opened
 * snapshot passes the stored one, and both show the same thing.
 */
export function OfflineDashboard({ report }: { report: Json<OfflineReport> }) {
  const { ks } = report.parameters;
  const measure = (s: Json<OfflineReport>["systems"][number], name: string) => s.overall.measures[name] as Json<Estimate> | undefined;
  return (
    <>
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
            <th className="num">HLU(a=5)</th>
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
                <td key={k} className="num" title={`95% CI ${ci(measure(s, `Success@${k}`))}`}>
                  {num(measure(s, `Success@${k}`)?.value)}
                  <div className="muted">{ci(measure(s, `Success@${k}`), 2)}</div>
                </td>
              ))}
              {["RR@10", "AP", "HLU(a=5)"].map((m) => (
                <td key={m} className="num">
                  {num(measure(s, m)?.value)}
                  <div className="muted">{ci(measure(s, m), 2)}</div>
                </td>
              ))}
              <td className="num">{num(measure(s, "PoolRecall")?.value)}</td>
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
            const points = report.systems.flatMap((s) => ks.map((k) => ({ system: s.name, k, value: measure(s, `Success@${k}`)?.value, lower: measure(s, `Success@${k}`)?.ci?.lower, upper: measure(s, `Success@${k}`)?.ci?.upper })));
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
      <Chart
        caption="Each measure against the depth K, one panel per measure, per system, with 95% intervals as vertical bars: where a system's advantage opens or closes with depth."
        deps={[report]}
        build={(Plot) => {
          const points = report.systems.flatMap((s) =>
            families.flatMap((f) => ks.map((k) => ({ system: s.name, measure: f.label, k, value: measure(s, f.name(k))?.value, lower: measure(s, f.name(k))?.ci?.lower, upper: measure(s, f.name(k))?.ci?.upper }))),
          );
          return {
            title: "Metrics against K",
            width: 1000,
            height: 260,
            marginBottom: 40,
            fx: { label: null },
            x: { label: "K (candidates shown)" },
            y: { label: "value", domain: [0, 1], grid: true },
            color: { legend: true },
            marks: [
              Plot.frame({ strokeOpacity: 0.2 }),
              Plot.ruleX(points, { fx: "measure", x: "k", y1: "lower", y2: "upper", stroke: "system", strokeOpacity: 0.5 }),
              Plot.lineY(points, { fx: "measure", x: "k", y: "value", stroke: "system", marker: "dot" }),
            ],
          };
        }}
      />

      <h2>Rank of the first relevant member</h2>
      <ClientTable
        caption="Rank distribution"
        fileName="offline-rank-distribution.csv"
        groupable={["system", "g"]}
        data={report.systems.flatMap((s) =>
          s.rankDistribution.map((r) => ({ system: s.name, g: r.g, proposals: r.proposals, mean: round(r.mean), median: round(r.median), p90: round(r.p90), variance: round(r.variance), missing: r.missing, missingShare: round(r.missingShare) })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "g", accessorKey: "g", header: "Grade ≥" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", aggregatedCell: () => null },
          { id: "mean", accessorKey: "mean", header: "Mean", aggregatedCell: () => null },
          { id: "median", accessorKey: "median", header: "Median", aggregatedCell: () => null },
          { id: "p90", accessorKey: "p90", header: "p90", aggregatedCell: () => null },
          { id: "variance", accessorKey: "variance", header: "Variance", aggregatedCell: () => null },
          { id: "missing", accessorKey: "missing", header: "Missing", aggregatedCell: () => null },
          { id: "missingShare", accessorKey: "missingShare", header: "Missing share", aggregatedCell: () => null },
        ]}
      />

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
            ...Object.fromEntries(["Success@5", "Success@10", "Success@20", "RR@10", "AP", "PoolRecall"].map((m) => [m, round((g.measures[m] as Json<Estimate> | undefined)?.value)])),
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
            {s.hints.weakSubjects.length ? `; significantly below its overall hit rate in ${s.hints.weakSubjects.join(", ")}` : ""}. Of the proposals missed at 10, {s.failureBreakdown.find((f) => f.k === 10)?.recallFailures ?? "—"} never retrieve a committee member
            (recall failures) and {s.failureBreakdown.find((f) => f.k === 10)?.rankingFailures ?? "—"} rank them too low (ranking failures).
          </li>
        ))}
      </ul>

      <h2>Failure cases</h2>
      <p className="muted">Proposals with no committee member in a system's top {report.parameters.failureK}: the gold members beside what the system ranked first.</p>
      <ClientTable
        caption="Failure cases"
        fileName="offline-failures.csv"
        groupable={["system"]}
        pageSize={10}
        data={report.systems.flatMap((s) => s.failures.map((f) => ({ system: s.name, proposal: f.proposal, title: f.title ?? "", gold: f.gold.join(", "), top: f.top.slice(0, 10).join(", ") })))}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "proposal", accessorKey: "proposal", header: "Proposal" },
          { id: "title", accessorKey: "title", header: "Title" },
          { id: "gold", accessorKey: "gold", header: "Committee (gold)" },
          { id: "top", accessorKey: "top", header: "System's top 10" },
        ]}
      />

      <h2>Pairwise comparison</h2>
      {report.comparisons.length === 0 ? (
        <p className="muted">One system only: nothing to compare.</p>
      ) : (
        <ClientTable
          caption="Pairwise comparison"
          fileName="offline-comparisons.csv"
          groupable={["measure"]}
          pageSize={12}
          data={[...report.comparisons].sort((x, y) => keyFirst(x.measure) - keyFirst(y.measure)).map((c) => ({ measure: c.measure, a: c.a, b: c.b, meanA: round(c.meanA), meanB: round(c.meanB), difference: round(c.difference), p: round(c.pValue), pHolm: round(c.pAdjusted), method: c.method }))}
          columns={[
            { id: "measure", accessorKey: "measure", header: "Measure" },
            { id: "a", accessorKey: "a", header: "A" },
            { id: "b", accessorKey: "b", header: "B" },
            { id: "meanA", accessorKey: "meanA", header: "Mean A", aggregatedCell: () => null },
            { id: "meanB", accessorKey: "meanB", header: "Mean B", aggregatedCell: () => null },
            { id: "difference", accessorKey: "difference", header: "B − A", aggregatedCell: () => null },
            { id: "p", accessorKey: "p", header: "p", aggregatedCell: () => null },
            { id: "pHolm", accessorKey: "pHolm", header: "p (Holm)", aggregatedCell: () => null },
            { id: "method", accessorKey: "method", header: "Test" },
          ]}
        />
      )}

      <h2>Every figure</h2>
      <AllFiguresTable rows={resultRows("offline", report)} caption="Every offline figure" fileName="offline-figures.csv" />
    </>
  );
}
