import type { ComparedFigure, ComparedParameter, Estimate } from "../../../scripts/results/compare";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatDifference, formatValue, plural } from "~/utils/format";
import { rowMeasure } from "~/utils/metrics-display";

/** A figure in its unit (a difference as a signed difference), with its interval when it has one. */
function shown(measure: string, e: Estimate | null) {
  if (!e) return "—";
  const m = rowMeasure(measure);
  const format = (v: number | null) =>
    m.isDifference ? formatDifference(v, m.kind) : formatValue(v, m.kind);
  const ci =
    e.lower !== null && e.upper !== null ? ` ${formatCi({ lower: e.lower, upper: e.upper }, format)}` : "";
  return `${format(e.value)}${ci}`;
}

const CHANGE: Record<ComparedFigure["changes"][number], string> = {
  value: "value",
  interval: "interval",
  missing: "in one only",
};

/** The parameters of both snapshots, differing ones first (and only those when `differingOnly`). */
export function ParameterComparison({
  parameters,
  ids,
  differingOnly,
}: {
  parameters: ComparedParameter[];
  ids: [number, number];
  differingOnly: boolean;
}) {
  const differing = parameters.filter((p) => p.differs);
  const rows = differingOnly ? differing : [...differing, ...parameters.filter((p) => !p.differs)];
  return (
    <section aria-labelledby="parameters-compared">
      <h2 id="parameters-compared">
        Parameters:{" "}
        {differing.length === 0 ? "all the same" : `${differing.length} of ${parameters.length} differ`}
      </h2>
      {rows.length > 0 ? (
        <TableScroll label="Parameters compared">
          <table aria-label="Parameters compared" className="snapshot-parameters">
            <thead>
              <tr>
                <th>Parameter</th>
                <th>Snapshot {ids[0]}</th>
                <th>Snapshot {ids[1]}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr
                  key={p.name}
                  data-differs={p.differs ? "yes" : undefined}
                  className={p.differs ? "gold" : undefined}
                >
                  <th scope="row">{p.name}</th>
                  <td className="snapshot-parameter-value">{p.a ?? "—"}</td>
                  <td className="snapshot-parameter-value">{p.b ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}

/**
 * The figures grouped by section (the result's group: overall, a subject, …), each a collapsible
 * <details> saying how many of its figures differ, the first open; with `differingOnly`, sections with
 * no difference are left out and the rest list only what differs, so a long report stays short (a
 * change of B alone moves most intervals of a report: hundreds of rows, a section at a time).
 */
export function FigureComparison({
  figures,
  ids,
  differingOnly,
}: {
  figures: ComparedFigure[];
  ids: [number, number];
  differingOnly: boolean;
}) {
  const sections = new Map<string, ComparedFigure[]>();
  for (const f of figures) sections.set(f.section, [...(sections.get(f.section) ?? []), f]);
  const shownSections = [...sections].filter(
    ([, rows]) => !differingOnly || rows.some((r) => r.changes.length),
  );
  if (shownSections.length === 0) return <p className="empty">No figure differs.</p>;
  return (
    <>
      {shownSections.map(([section, rows], i) => {
        const differing = rows.filter((r) => r.changes.length > 0);
        const listed = differingOnly ? differing : rows;
        return (
          <details key={section} className="snapshot-section" open={i === 0}>
            <summary>
              <strong>{section}</strong>: {differing.length} of {plural(rows.length, "figure")} differ
            </summary>
            <TableScroll label={`Figures: ${section}`}>
              <table aria-label={`Figures: ${section}`}>
                <thead>
                  <tr>
                    <th>System or arm</th>
                    <th>Measure</th>
                    <th className="num">Snapshot {ids[0]}</th>
                    <th className="num">Snapshot {ids[1]}</th>
                    <th className="num">Change in value</th>
                    <th>Differs in</th>
                  </tr>
                </thead>
                <tbody>
                  {listed.map((r) => (
                    <tr
                      key={`${r.system}\u0000${r.measure}`}
                      className={r.changes.length ? "gold" : undefined}
                      data-differs={r.changes.length ? r.changes.join(" ") : undefined}
                    >
                      <td>{r.system}</td>
                      <td title={r.measure}>{rowMeasure(r.measure).label}</td>
                      <td className="num nowrap">{shown(r.measure, r.a)}</td>
                      <td className="num nowrap">{shown(r.measure, r.b)}</td>
                      <td className="num nowrap">
                        {r.a?.value != null && r.b?.value != null
                          ? formatDifference(r.b.value - r.a.value, rowMeasure(r.measure).kind)
                          : "—"}
                      </td>
                      <td>{r.changes.map((c) => CHANGE[c]).join(", ") || "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </details>
        );
      })}
    </>
  );
}
