import { percentTick, plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount, formatNumber, formatRate } from "~/utils/format";
import { estimate, show, type Report } from "./cells";

/**
 * The source's three criteria side by side: accuracy, prediction time per list (p50, p95, max with
 * 95% bootstrap CIs over the timed lists) and what building the system took, as its team reported it.
 */
export function ResourcesTable({ report }: { report: Report }) {
  const any = report.systems.some(
    (s) => s.resources.timed > 0 || s.resources.buildSeconds !== null || s.resources.memoryMb !== null,
  );
  if (!any)
    return (
      <p className="muted">
        No system's lists carry a prediction time: import lists with a <code>latency_ms</code> column, and
        systems with <code>build_seconds</code> and <code>memory_mb</code>.
      </p>
    );
  return (
    <TableScroll label="Accuracy, prediction time and build by system">
      <table aria-label="Accuracy, prediction time and build by system">
        <thead>
          <tr>
            <th>System</th>
            <th className="num">HR@10</th>
            <th className="num">MRR@10</th>
            <th className="num">Timed lists</th>
            <th className="num">Latency p50 (ms)</th>
            <th className="num">Latency p95 (ms)</th>
            <th className="num">Latency max (ms)</th>
            <th className="num">Build (s)</th>
            <th className="num">Memory (MB)</th>
          </tr>
        </thead>
        <tbody>
          {report.systems.map((s) => {
            const r = s.resources;
            return (
              <tr key={s.key}>
                <th scope="row">{s.name}</th>
                <td className="num">{show("Success@10", estimate(s, "Success@10")?.value)}</td>
                <td className="num">{show("RR@10", estimate(s, "RR@10")?.value)}</td>
                <td className="num">
                  {formatCount(r.timed)} of {formatCount(r.lists)}
                </td>
                {[r.p50, r.p95, r.max].map((e, i) => (
                  <td key={i} className="num">
                    {formatNumber(e.value)}
                    <div className="muted">{formatCi(e.ci, formatNumber)}</div>
                  </td>
                ))}
                <td className="num">{formatNumber(r.buildSeconds)}</td>
                <td className="num">{formatNumber(r.memoryMb)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Each timed system's latency quantiles as chart rows: (system, share of lists, ms). */
const latencyRows = (report: Report) =>
  report.systems.flatMap((s) =>
    (s.resources.quantiles ?? []).map((q) => ({ system: s.name, share: q.p, ms: q.ms })),
  );

/**
 * The latency distribution per system: the share of lists answered within each time, drawn from the
 * quantiles at every 5% (so a long tail shows where the p95 alone would hide its shape).
 */
export function LatencyChart({ report }: { report: Report }) {
  const rows = latencyRows(report);
  if (!rows.length) return null;
  const series = [
    ...plottedSeries(rows, (r) => r.system),
    { key: "95%", label: "dashed: 95% of lists", color: "currentColor", dash: "4 3" },
  ];
  return (
    <Chart
      legend={series}
      title="Prediction time per list, by system"
      caption="Share of each system's timed lists answered within each time (ms), from its latency quantiles at every 5%; further left is faster, a long flat top is a slow tail; the dashed line is 95%."
      deps={[report]}
      table={{
        columns: [
          { key: "system", label: "System" },
          { key: "share", label: "Share of lists", format: (v) => formatRate(v as number) },
          { key: "ms", label: "Within (ms)", format: (v) => formatNumber(v as number) },
        ],
        rows,
      }}
      build={(Plot) => ({
        height: 260,
        x: { label: "latency per list (ms)", grid: true },
        y: { label: "share of lists (%)", percent: true, domain: [0, 100], tickFormat: percentTick },
        color: seriesScale(series),
        marks: [
          Plot.line(rows, { x: "ms", y: "share", stroke: "system", curve: "step-after" }),
          Plot.dot(rows, { x: "ms", y: "share", fill: "system", r: 2 }),
          Plot.ruleY([0.95], { strokeDasharray: "4 3" }),
        ],
      })}
    />
  );
}
