import type { OfflineReport, Estimate } from "../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { AllFiguresTable } from "~/components/all-figures-table";
import {
  formatCi,
  formatCount,
  formatDifference,
  formatNumber,
  formatP,
  formatRate,
  formatValue,
  verdictByP,
} from "~/utils/format";
import { metricDisplay, metricLabel } from "~/utils/metrics-display";
import { VerdictLabel } from "./verdict";
import { OfflineScoreSections } from "./offline-scores";
import { OfflineIntegrity, OfflineViewLine } from "./offline-integrity";
import { cdfWithBand, sharedHistogram } from "~/utils/chart-data";
import { TableScroll } from "~/components/table-scroll";

/** A measure's value in its unit (HR as a percentage, MRR and AP with three digits). */
const show = (name: string, v: number | null | undefined) => formatValue(v, metricDisplay(name).kind);
const showCi = (name: string, e: Json<Estimate> | undefined) => formatCi(e?.ci, (v) => show(name, v));
/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});
const raw = (v: number | null | undefined) => (v === undefined ? null : v);

/** The comparisons most decisions rest on come first; the rest follow in the report's order. */
const KEY_MEASURES = ["Success@10", "RR@10", "AP", "Rank(g=1)"];
const keyFirst = (measure: string) =>
  KEY_MEASURES.includes(measure) ? KEY_MEASURES.indexOf(measure) : KEY_MEASURES.length;

/** The measures of the by-subject table. */
const SUBJECT_MEASURES = ["Success@5", "Success@10", "Success@20", "RR@10", "AP", "PoolRecall"];

/** The measure families drawn against K, each in its own panel. */
const families = [
  { label: "HR@K", name: (k: number) => `Success@${k}` },
  { label: "MRR@K", name: (k: number) => `RR@${k}` },
  { label: "HR(≥2)@K", name: (k: number) => `Success(g=2)@${k}` },
  { label: "HR(≥3)@K", name: (k: number) => `Success(g=3)@${k}` },
  { label: "Coverage@K", name: (k: number) => `Coverage@${k}` },
];

type Report = Json<OfflineReport>;
const estimate = (s: Report["systems"][number], name: string) =>
  s.overall.measures[name] as Json<Estimate> | undefined;
const rate = (v: unknown) => formatRate(v as number | null);
const num = (v: unknown) => formatNumber(v as number | null);
const count = (v: unknown) => formatCount(v as number | null);

/** HR@K per system and K with its interval: the points of the first chart and its table. */
function hitRatePoints(report: Report) {
  return report.systems.flatMap((s) =>
    report.parameters.ks.map((k) => ({
      system: s.name,
      k,
      value: estimate(s, `Success@${k}`)?.value,
      lower: estimate(s, `Success@${k}`)?.ci?.lower,
      upper: estimate(s, `Success@${k}`)?.ci?.upper,
    })),
  );
}

/** Every family's value against K, per system, with intervals. */
function familyPoints(report: Report) {
  return report.systems.flatMap((s) =>
    families.flatMap((f) =>
      report.parameters.ks.map((k) => ({
        system: s.name,
        measure: f.label,
        k,
        value: estimate(s, f.name(k))?.value,
        lower: estimate(s, f.name(k))?.ci?.lower,
        upper: estimate(s, f.name(k))?.ci?.upper,
      })),
    ),
  );
}

const kHitBins = (report: Report) =>
  sharedHistogram(report.systems.map((s) => ({ name: s.name, values: s.kHitValues })));
const kHitCdf = (report: Report) =>
  cdfWithBand(report.systems.map((s) => ({ name: s.name, values: s.kHitValues, total: s.proposals })));

/**
 * The tier-1 dashboard drawn from an offline report: the live page computes the report, an opened
 * snapshot passes the stored one, and both show the same thing.
 */
export function OfflineDashboard({ report }: { report: Json<OfflineReport> }) {
  const { ks } = report.parameters;
  const measure = (s: Json<OfflineReport>["systems"][number], name: string) =>
    s.overall.measures[name] as Json<Estimate> | undefined;
  return (
    <>
      <OfflineViewLine report={report} />
      <h2>Hit rate by depth</h2>
      <TableScroll label="HR@K by system">
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
              <th className="num">{metricLabel("HLU(a=5)")}</th>
              <th className="num">Pool recall</th>
              <th className="num">K_hit median</th>
              <th className="num">K_hit p90</th>
            </tr>
          </thead>
          <tbody>
            {report.systems.map((s) => (
              <tr key={s.key}>
                <th scope="row">{s.name}</th>
                <td className="num">{formatCount(s.proposals)}</td>
                {[...ks.map((k) => `Success@${k}`), "RR@10", "AP", "HLU(a=5)"].map((m) => (
                  <td key={m} className="num" title={`95% CI ${showCi(m, measure(s, m))}`}>
                    {show(m, measure(s, m)?.value)}
                    <div className="muted">{showCi(m, measure(s, m))}</div>
                  </td>
                ))}
                <td className="num">{show("PoolRecall", measure(s, "PoolRecall")?.value)}</td>
                <td className="num">
                  {formatNumber(s.kHit.median.value)}
                  <div className="muted">{formatCi(s.kHit.median.ci, formatNumber)}</div>
                </td>
                <td className="num">
                  {formatNumber(s.kHit.p90.value)}
                  <div className="muted">{formatCi(s.kHit.p90.ci, formatNumber)}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      <h2>Charts</h2>
      <div className="side-by-side">
        <Chart
          title="HR@K with 95% CI"
          caption="Hit rate by depth K with its 95% interval as a band, per system: the share of proposals with a committee member in the top K."
          deps={[report]}
          table={{
            columns: [
              { key: "system", label: "System" },
              { key: "k", label: "K" },
              { key: "value", label: "HR@K", format: rate },
              { key: "lower", label: "95% CI lower", format: rate },
              { key: "upper", label: "95% CI upper", format: rate },
            ],
            rows: hitRatePoints(report),
          }}
          build={(Plot) => {
            const points = hitRatePoints(report);
            return {
              x: { label: "K (candidates shown)" },
              y: { label: "HR@K (higher is better)", domain: [0, 1], tickFormat: "%", grid: true },
              color: { legend: true },
              marks: [
                Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }),
                Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" }),
              ],
            };
          }}
        />
        <Chart
          title="K_hit histogram, one panel per system"
          caption="K_hit: the rank of the first committee member in each proposal's list, one panel per system on the same bins (proposals with no committee member in the list are left out)."
          deps={[report]}
          table={{
            columns: [
              { key: "series", label: "System" },
              { key: "from", label: "Rank from" },
              { key: "to", label: "Rank below" },
              { key: "count", label: "Proposals", format: count },
            ],
            rows: kHitBins(report),
          }}
          build={(Plot) => {
            const bins = kHitBins(report);
            const systems = report.systems.map((s) => s.name);
            return {
              height: 60 + 130 * systems.length,
              x: { label: "rank of the first committee member" },
              y: { label: "proposals", grid: true },
              fy: { label: null, axis: null, domain: systems },
              color: { legend: true, domain: systems },
              marks: [
                Plot.rectY(bins, {
                  x1: "from",
                  x2: "to",
                  y: "count",
                  fy: "series",
                  fill: "series",
                  inset: 0.5,
                }),
                Plot.ruleY([0]),
                Plot.text(systems, {
                  fy: (d: string) => d,
                  text: (d: string) => d,
                  frameAnchor: "top-right",
                  dy: 2,
                  dx: -4,
                }),
              ],
            };
          }}
        />
        <Chart
          title="K_hit CDF with 95% band"
          caption="Share of proposals whose first committee member appears by each rank (the K_hit cumulative distribution), with a simultaneous 95% band (Dvoretzky–Kiefer–Wolfowitz); where it crosses the dashed 90% line is the suggested display depth."
          deps={[report]}
          table={{
            columns: [
              { key: "series", label: "System" },
              { key: "value", label: "Rank" },
              { key: "share", label: "Share by this rank", format: rate },
              { key: "lower", label: "95% band lower", format: rate },
              { key: "upper", label: "95% band upper", format: rate },
            ],
            rows: kHitCdf(report),
          }}
          build={(Plot) => {
            const points = kHitCdf(report);
            return {
              x: { label: "rank" },
              y: { label: "share of proposals", domain: [0, 1], tickFormat: "%", grid: true },
              color: { legend: true },
              marks: [
                Plot.areaY(points, {
                  x: "value",
                  y1: "lower",
                  y2: "upper",
                  fill: "series",
                  fillOpacity: 0.15,
                  curve: "step-after",
                }),
                Plot.lineY(points, { x: "value", y: "share", stroke: "series", curve: "step-after" }),
                Plot.ruleY([0.9], { strokeDasharray: "4 3" }),
              ],
            };
          }}
        />
      </div>
      <Chart
        title="Metrics against K"
        caption="Each measure against the depth K, one panel per measure, per system, with 95% intervals as vertical bars: where a system's advantage opens or closes with depth."
        deps={[report]}
        minWidth={640}
        table={{
          columns: [
            { key: "measure", label: "Measure" },
            { key: "system", label: "System" },
            { key: "k", label: "K" },
            { key: "value", label: "Value", format: num },
            { key: "lower", label: "95% CI lower", format: num },
            { key: "upper", label: "95% CI upper", format: num },
          ],
          rows: familyPoints(report),
        }}
        build={(Plot) => {
          const points = familyPoints(report);
          return {
            height: 280,
            // Room for the y label above the facet names, which it overlapped.
            marginTop: 40,
            marginBottom: 40,
            fx: { label: null },
            x: { label: "K (candidates shown)" },
            y: { label: "value (higher is better)", domain: [0, 1], grid: true },
            color: { legend: true },
            marks: [
              Plot.frame({ strokeOpacity: 0.2 }),
              Plot.ruleX(points, {
                fx: "measure",
                x: "k",
                y1: "lower",
                y2: "upper",
                stroke: "system",
                strokeOpacity: 0.5,
              }),
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
          s.rankDistribution.map((r) => ({
            system: s.name,
            g: r.g,
            proposals: r.proposals,
            mean: raw(r.mean),
            median: raw(r.median),
            p90: raw(r.p90),
            variance: raw(r.variance),
            missing: r.missing,
            missingShare: raw(r.missingShare),
          })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "g", accessorKey: "g", header: "g (committee members)" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
          { id: "mean", accessorKey: "mean", header: "Mean rank", ...cellAs(formatNumber) },
          { id: "median", accessorKey: "median", header: "Median", ...cellAs(formatNumber) },
          { id: "p90", accessorKey: "p90", header: "p90", ...cellAs(formatNumber) },
          { id: "variance", accessorKey: "variance", header: "Variance", ...cellAs(formatNumber) },
          { id: "missing", accessorKey: "missing", header: "Missing", ...cellAs(formatCount) },
          { id: "missingShare", accessorKey: "missingShare", header: "Missing share", ...cellAs(formatRate) },
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
            ...Object.fromEntries(
              SUBJECT_MEASURES.map((m) => [m, raw((g.measures[m] as Json<Estimate> | undefined)?.value)]),
            ),
          })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "subject", accessorKey: "subject", header: "Subject" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
          ...SUBJECT_MEASURES.map((m) => ({
            id: m,
            accessorKey: m,
            header: metricLabel(m),
            ...cellAs((v) => show(m, v)),
          })),
        ]}
      />

      <OfflineScoreSections report={report} />

      <h2>What to do with it</h2>
      <ul>
        {report.systems.map((s) => (
          <li key={s.key}>
            <strong>{s.name}</strong>:{" "}
            {s.hints.displayDepth !== null
              ? `show at least ${s.hints.displayDepth} candidates by default (90% of proposals have their first committee member by then)`
              : "no proposal has a committee member in its list"}
            {s.hints.weakSubjects.length
              ? `; significantly below its overall hit rate in ${s.hints.weakSubjects.join(", ")}`
              : ""}
            . Of the proposals missed at 10,{" "}
            {s.failureBreakdown.find((f) => f.k === 10)?.recallFailures ?? "—"} never retrieve a committee
            member (recall failures) and {s.failureBreakdown.find((f) => f.k === 10)?.rankingFailures ?? "—"}{" "}
            rank them too low (ranking failures).
          </li>
        ))}
      </ul>

      <OfflineIntegrity report={report} />

      <h2>Failure cases</h2>
      <p className="muted">
        Proposals with no committee member in a system's top {report.parameters.failureK}: the gold members
        beside what the system ranked first.
      </p>
      <ClientTable
        caption="Failure cases"
        fileName="offline-failures.csv"
        groupable={["system"]}
        pageSize={10}
        data={report.systems.flatMap((s) =>
          s.failures.map((f) => ({
            system: s.name,
            proposal: f.proposal,
            title: f.title ?? "",
            gold: f.gold.join(", "),
            top: f.top.slice(0, 10).join(", "),
            conflicted: (f.conflicted ?? []).map((c) => `${c.candidate} (#${c.rank})`).join(", "),
          })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "proposal", accessorKey: "proposal", header: "Proposal" },
          { id: "title", accessorKey: "title", header: "Title" },
          { id: "gold", accessorKey: "gold", header: "Committee (gold)" },
          { id: "top", accessorKey: "top", header: "System's top 10" },
          { id: "conflicted", accessorKey: "conflicted", header: "Conflicted in top 10" },
        ]}
      />

      <h2>Pairwise comparison</h2>
      <p className="muted">
        B − A in each measure's unit (HR in percentage points); "better" or "worse" where the Holm-adjusted p
        is below 0.05, read by the measure's direction (a lower rank is better).
      </p>
      {report.comparisons.length === 0 ? (
        <p className="muted">One system only: nothing to compare.</p>
      ) : (
        <ClientTable
          caption="Pairwise comparison"
          fileName="offline-comparisons.csv"
          groupable={["measure"]}
          pageSize={12}
          initiallyHidden={["code"]}
          data={[...report.comparisons]
            .sort((x, y) => keyFirst(x.measure) - keyFirst(y.measure))
            .map((c) => {
              const d = metricDisplay(c.measure);
              return {
                measure: d.label,
                code: c.measure,
                a: c.a,
                b: c.b,
                meanA: c.meanA,
                meanB: c.meanB,
                difference: c.difference,
                p: c.pValue,
                pHolm: c.pAdjusted,
                verdict: verdictByP(c.difference, c.pAdjusted, d.direction),
                method: c.method,
              };
            })}
          columns={[
            { id: "measure", accessorKey: "measure", header: "Measure" },
            { id: "code", accessorKey: "code", header: "Code name" },
            { id: "a", accessorKey: "a", header: "A" },
            { id: "b", accessorKey: "b", header: "B" },
            {
              id: "meanA",
              accessorKey: "meanA",
              header: "Mean A",
              cell: (c) => show(c.row.original.code, c.getValue() as number),
              aggregatedCell: () => null,
            },
            {
              id: "meanB",
              accessorKey: "meanB",
              header: "Mean B",
              cell: (c) => show(c.row.original.code, c.getValue() as number),
              aggregatedCell: () => null,
            },
            {
              id: "difference",
              accessorKey: "difference",
              header: "B − A",
              cell: (c) => (
                <span className={`verdict verdict-${c.row.original.verdict}`}>
                  {formatDifference(c.getValue() as number, metricDisplay(c.row.original.code).kind)}
                </span>
              ),
              aggregatedCell: () => null,
            },
            { id: "p", accessorKey: "p", header: "p", ...cellAs(formatP) },
            { id: "pHolm", accessorKey: "pHolm", header: "p (Holm)", ...cellAs(formatP) },
            {
              id: "verdict",
              accessorKey: "verdict",
              header: "B vs A",
              cell: (c) => <VerdictLabel verdict={c.row.original.verdict} />,
              aggregatedCell: () => null,
            },
            { id: "method", accessorKey: "method", header: "Test" },
          ]}
        />
      )}

      <h2>Every figure</h2>
      <AllFiguresTable
        rows={resultRows("offline", report)}
        caption="Every offline figure"
        fileName="offline-figures.csv"
      />
    </>
  );
}
