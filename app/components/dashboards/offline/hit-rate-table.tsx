import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount, formatNumber } from "~/utils/format";
import { metricLabel } from "~/utils/metrics-display";
import { estimate, show, showCi, type Report, type System } from "./cells";

/** The headline table: each system's hit rate at every K, MRR@10, AP, HLU both ways, pool recall and K_hit. */
export function HitRateTable({ report }: { report: Report }) {
  const { ks } = report.parameters;
  return (
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
            <th className="num" title="Each proposal's utility over its best, averaged (as published)">
              {metricLabel("HLU(a=5)")}
            </th>
            <th className="num" title="Σ utility / Σ best over proposals (Breese et al. 1998)">
              {metricLabel("HLU-ratio(a=5)")}
            </th>
            <th className="num">Pool recall</th>
            <th className="num">K_hit median</th>
            <th className="num">K_hit p90</th>
          </tr>
        </thead>
        <tbody>
          {report.systems.map((s) => (
            <HitRateRow key={s.key} system={s} ks={ks} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function HitRateRow({ system: s, ks }: { system: System; ks: Report["parameters"]["ks"] }) {
  return (
    <tr>
      <th scope="row">{s.name}</th>
      <td className="num">{formatCount(s.proposals)}</td>
      {[...ks.map((k) => `Success@${k}`), "RR@10", "AP", "HLU(a=5)", "HLU-ratio(a=5)", "PoolRecall"].map(
        (m) => (
          <td key={m} className="num" title={`95% CI ${showCi(m, estimate(s, m))}`}>
            {show(m, estimate(s, m)?.value)}
            <div className="muted">{showCi(m, estimate(s, m))}</div>
          </td>
        ),
      )}
      <td className="num">
        {formatNumber(s.kHit.median.value)}
        <div className="muted">{formatCi(s.kHit.median.ci, formatNumber)}</div>
      </td>
      <td className="num">
        {formatNumber(s.kHit.p90.value)}
        <div className="muted">{formatCi(s.kHit.p90.ci, formatNumber)}</div>
      </td>
    </tr>
  );
}
