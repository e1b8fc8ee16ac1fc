import { TableScroll } from "~/components/table-scroll";
import { formatCount } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import type { ClicksFit } from "./fit";
import { fmt, fmtCi, label } from "./labels";

/**
 * Each arm's CTR as counted and corrected for position bias (each click weighted by 1 / examination),
 * each with its bootstrap interval over the arm's conveners.
 */
export function CorrectedCtrTable({ fit }: { fit: ClicksFit }) {
  return (
    <TableScroll label="CTR per arm, raw and corrected for position bias">
      <table aria-label="CTR per arm, raw and corrected for position bias">
        <thead>
          <tr>
            <th>Arm</th>
            <th>System</th>
            <th className="num">Sessions</th>
            <th className="num">Shown</th>
            <th className="num">Clicks</th>
            <th className="num" title={metricDisplay("ctrTop10").description}>
              {label("ctrTop10")}
            </th>
            <th className="num" title={metricDisplay("correctedCtr").description}>
              {label("correctedCtr")}
            </th>
          </tr>
        </thead>
        <tbody>
          {fit.arms.map((a) => (
            <tr key={a.arm}>
              <th scope="row">{a.arm}</th>
              <td>{fit.displayDepth.find((d) => d.arm === a.arm)?.system ?? "—"}</td>
              <td className="num">{formatCount(a.sessions)}</td>
              <td className="num">{formatCount(a.shown)}</td>
              <td className="num">{formatCount(a.clicks)}</td>
              <td className="num">
                {fmt(a.ctr, "ctrTop10")}
                <div className="muted">{fmtCi(a.ctrCi, "ctrTop10")}</div>
              </td>
              <td className="num">
                {fmt(a.correctedCtr, "correctedCtr")}
                <div className="muted">{fmtCi(a.correctedCtrCi, "correctedCtr")}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
