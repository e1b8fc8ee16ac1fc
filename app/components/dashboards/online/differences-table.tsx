import type { OnlineReport } from "../../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatDifference, formatLift, formatP, verdict } from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { VerdictLabel } from "../verdict";

type Comparison = Json<OnlineReport>["comparisons"][number];

/** Each metric's difference arm vs control with its interval, the lift, p and the verdict. */
export function DifferencesTable({ report }: { report: Json<OnlineReport> }) {
  // A one-look p beside always-valid intervals would contradict them ("p < 0.001", "inconclusive"): under
  // sequential intervals no p is shown, and the verdict is read from the interval on screen.
  const sequential = report.intervals === "sequential";
  return (
    <TableScroll label="Differences vs control">
      <table aria-label="Differences vs control">
        <thead>
          <tr>
            <th>Metric</th>
            <th className="num">Difference (95% CI)</th>
            <th className="num">Lift (95% CI)</th>
            <th className="num">{sequential ? "p (not shown)" : "p"}</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {report.comparisons.map((c) => (
            <DifferenceRow key={`${c.metric}-${c.arm}`} comparison={c} sequential={sequential} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function DifferenceRow({ comparison: c, sequential }: { comparison: Comparison; sequential: boolean }) {
  const d = metricDisplay(c.metric);
  const v = verdict(c.difference, c.ci, d.direction);
  return (
    <tr>
      <td>
        {d.label}
        <div className="muted">
          {c.arm} vs {c.control}
          {d.direction === "lower" ? `, ${directionText(d.direction)}` : ""}
        </div>
      </td>
      <td className="num">
        <span className={`verdict verdict-${v}`}>{formatDifference(c.difference, d.kind)}</span>
        <div className="muted">{c.ci ? formatCi(c.ci, (x) => formatDifference(x, d.kind)) : ""}</div>
      </td>
      <td className="num">
        <span className={`verdict verdict-${v}`}>{formatLift(c.relativeLift)}</span>
        <div className="muted">{c.liftCi ? formatCi(c.liftCi, formatLift) : ""}</div>
      </td>
      <td className="num">
        {sequential ? <span title="Read the always-valid interval instead">—</span> : formatP(c.pValue)}
      </td>
      <td>
        <VerdictLabel verdict={v} />
      </td>
    </tr>
  );
}
