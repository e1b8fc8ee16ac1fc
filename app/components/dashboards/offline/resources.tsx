import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount, formatNumber } from "~/utils/format";
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
