import type { SliceResult } from "../../../../scripts/online/slices";
import type { Correction } from "../../../../scripts/stats/multiple-testing";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatCount, formatLift, formatP } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import { fmt } from "./labels";
import { correctionHolds, correctionName, SliceMembership, useSliceChoice } from "../slice-controls";

export interface Slices {
  /** "subject" (of each session's proposal) or an imported convener attribute. */
  attribute: string;
  holm: { slices: SliceResult[]; comparisons: number; correction: Correction };
  bh: { slices: SliceResult[]; comparisons: number; correction: Correction };
}

/**
 * The results broken down by the subject of each session's proposal or by an imported convener attribute
 * (institution, seniority …): per slice and metric the change with its interval, p, and p adjusted over
 * every slice and metric of the table (Holm by default, which holds the family-wise error;
 * Benjamini–Hochberg, the false discovery rate, selectable), with the number of comparisons stated. A
 * slice with too few conveners in an arm says so instead of a number.
 */
export function SlicesTable({ slices, byConvener }: { slices: Json<Slices>; byConvener: Json<Slices>[] }) {
  const { shown, chosen, correction, controls } = useSliceChoice(slices, byConvener);
  const bySubject = shown.attribute === "subject";
  const title = `Slices by ${shown.attribute}`;
  return (
    <section aria-label="Slices">
      <h2>{title}</h2>
      {controls}
      <p className="muted">
        {formatCount(chosen.comparisons)} comparisons ({chosen.slices.filter((s) => !s.tooFew).length}{" "}
        {bySubject ? "subjects" : `values of ${shown.attribute}`} with enough conveners × 4 metrics), p
        adjusted by {correctionName[correction]} across all of them ({correctionHolds(correction)}).
        Frequentist figures
        {chosen.slices.some((s) => !s.tooFew && s.decisions.some((d) => d.cuped)) ? ", with CUPED" : ""};{" "}
        <SliceMembership attribute={shown.attribute} convenerAttributes={byConvener.length} afterSemicolon />
      </p>
      <TableScroll label={title}>
        <table aria-label={title}>
          <thead>
            <tr>
              <th>{bySubject ? "Subject" : shown.attribute}</th>
              <th>Metric</th>
              <th className="num">Baseline</th>
              <th className="num">Variation</th>
              <th>Change (95% interval)</th>
              <th className="num">p</th>
              <th className="num">Adjusted p</th>
            </tr>
          </thead>
          <tbody>
            {chosen.slices.map((s) =>
              s.tooFew ? <TooFewRow key={s.slice} slice={s} /> : <SliceRows key={s.slice} slice={s} />,
            )}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function TooFewRow({ slice }: { slice: Json<Extract<SliceResult, { tooFew: true }>> }) {
  return (
    <tr>
      <td>{slice.slice}</td>
      <td colSpan={6} className="muted">
        {slice.reason} (
        {Object.entries(slice.units)
          .map(([arm, n]) => `${arm}: ${n}`)
          .join(", ")}
        )
      </td>
    </tr>
  );
}

function SliceRows({ slice }: { slice: Json<Extract<SliceResult, { tooFew: false }>> }) {
  return (
    <>
      {slice.decisions.map((d, i) => {
        const o = (d.cuped ? d.cuped.result : d.unadjusted).relative;
        return (
          <tr key={`${d.arm}-${d.metric}`}>
            <td>{i === 0 ? slice.slice : ""}</td>
            <td>
              {metricDisplay(d.metric).label}
              <div className="muted">
                {d.arm} vs {d.control}
              </div>
            </td>
            <td className="num">{fmt(d.baseline, d.metric)}</td>
            <td className="num">{fmt(d.variation, d.metric)}</td>
            <td>
              {o.kind === "none" ? (
                <span className="muted">{o.reason}</span>
              ) : (
                <>
                  {formatLift(o.effect)}{" "}
                  <span className="muted">{formatCi({ lower: o.ci[0], upper: o.ci[1] }, formatLift)}</span>
                </>
              )}
            </td>
            <td className="num">
              {o.kind === "frequentist" || o.kind === "sequential" ? formatP(o.pValue) : "—"}
            </td>
            <td className="num">{formatP(d.adjustedP)}</td>
          </tr>
        );
      })}
    </>
  );
}
