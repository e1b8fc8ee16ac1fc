import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount, formatPp } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import type { ClicksFit } from "./fit";
import { fmt, fmtCi, label } from "./labels";

type Arm = ClicksFit["arms"][number];

/** A difference in percentage points over its interval ("—" for the control arm and older snapshots). */
function DifferenceCell({ value, ci }: { value: number | null | undefined; ci: Arm["ctrCi"] }) {
  return (
    <td className="num">
      {value === undefined ? "—" : formatPp(value)}
      {value === undefined ? null : <div className="muted">{formatCi(ci, formatPp)}</div>}
    </td>
  );
}

/**
 * Each arm's CTR as counted and corrected for position bias (each click weighted by 1 / examination),
 * each with its bootstrap interval over the arm's conveners, and each arm's difference from the control
 * arm with its interval (both arms' conveners resampled).
 */
export function CorrectedCtrTable({ fit }: { fit: ClicksFit }) {
  const control = fit.arms.find((a) => a.difference)?.difference?.control;
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
            {control ? <th className="num">CTR − {control} (95% CI)</th> : null}
            <th className="num" title={metricDisplay("correctedCtr").description}>
              {label("correctedCtr")}
            </th>
            {control ? <th className="num">Corrected − {control} (95% CI)</th> : null}
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
              {control ? <DifferenceCell value={a.difference?.ctr} ci={a.difference?.ctrCi} /> : null}
              <td className="num">
                {fmt(a.correctedCtr, "correctedCtr")}
                <div className="muted">{fmtCi(a.correctedCtrCi, "correctedCtr")}</div>
              </td>
              {control ? (
                <DifferenceCell value={a.difference?.correctedCtr} ci={a.difference?.correctedCtrCi} />
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
