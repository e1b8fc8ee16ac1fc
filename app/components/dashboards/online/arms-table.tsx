import { onlineMetrics, type OnlineReport } from "../../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount } from "~/utils/format";
import { fmt, metricLabels } from "./labels";

/** Each arm's conveners, sessions and every metric with its 95% interval; the control marked. */
export function ArmsTable({ report, control }: { report: Json<OnlineReport>; control: string }) {
  return (
    <TableScroll label="Arms with intervals">
      <table aria-label="Arms with intervals">
        <thead>
          <tr>
            <th>Arm</th>
            <th className="num">Conveners</th>
            <th className="num">Sessions</th>
            {onlineMetrics.map((m) => (
              <th key={m} className="num">
                {metricLabels[m]} (95% CI)
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
              <td className="num">{formatCount(a.units)}</td>
              <td className="num">{formatCount(a.sessions)}</td>
              {onlineMetrics.map((m) => (
                <td key={m} className="num">
                  {fmt(a[m], m)}
                  <div className="muted">{a.ci?.[m] ? formatCi(a.ci[m], (v) => fmt(v, m)) : ""}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
