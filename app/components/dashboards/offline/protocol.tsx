import { TableScroll } from "~/components/table-scroll";
import { formatCount } from "~/utils/format";
import { metricLabel } from "~/utils/metrics-display";
import { show, type Report, type System } from "./cells";

/**
 * The systems whose lists answer an offline protocol (given m, all but 1): what the protocol dropped,
 * the given members they returned (removed before measuring), and each fold's figures with their
 * spread across folds. Nothing when no system answers one.
 */
export function ProtocolSection({ report }: { report: Report }) {
  const systems = report.systems.filter((s) => s.protocol);
  if (systems.length === 0) return null;
  return (
    <>
      <h2>Protocols: given m, all but 1</h2>
      <p className="muted">
        These systems were given some committee members as input (the convener&apos;s first picks) and are
        measured on the rest only: the given members are removed from their lists (ranks closed up) and from
        the gold. Proposals whose committee is too small for the protocol are dropped. Each fold is one random
        split; the figures above average the folds.
      </p>
      {systems.map((s) => (
        <ProtocolSystem key={s.key} system={s} />
      ))}
    </>
  );
}

function ProtocolSystem({ system: s }: { system: System }) {
  const p = s.protocol!;
  const measures = Object.keys(p.spread);
  return (
    <section aria-label={`${s.name} under ${p.protocol}`}>
      <h3>
        {s.name}: {p.protocol} (seed {p.seed})
      </h3>
      <p>
        {formatCount(p.folds.length)} fold{p.folds.length === 1 ? "" : "s"} · {formatCount(p.dropped.length)}{" "}
        proposals dropped (committee too small)
        {p.dropped.length > 0 && (
          <span className="muted">
            {" "}
            (
            {p.dropped
              .slice(0, 10)
              .map((d) => `${d.proposal}: ${d.members}`)
              .join(", ")}
            {p.dropped.length > 10 ? ", …" : ""})
          </span>
        )}{" "}
        · {formatCount(p.givenReturned.lists)} lists returned given members (
        {formatCount(p.givenReturned.slots)} slots, removed before measuring)
        {p.unmatchedLists > 0
          ? ` · ${formatCount(p.unmatchedLists)} lists name no fold and are not measured`
          : ""}
      </p>
      <TableScroll label={`${s.name}: figures per fold`}>
        <table aria-label={`${s.name}: figures per fold`}>
          <thead>
            <tr>
              <th>Fold</th>
              <th className="num">Proposals</th>
              {measures.map((m) => (
                <th key={m} className="num">
                  {metricLabel(m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.perFold.map((f) => (
              <tr key={f.fold}>
                <th scope="row">fold-{f.fold}</th>
                <td className="num">{formatCount(f.proposals)}</td>
                {measures.map((m) => (
                  <td key={m} className="num">
                    {show(m, f.measures[m])}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">Mean (SD across folds)</th>
              <td />
              {measures.map((m) => (
                <td key={m} className="num">
                  {show(m, p.spread[m].mean)}
                  <div className="muted">SD {show(m, p.spread[m].sd)}</div>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
