import type { ReactNode } from "react";
import type {
  MultileavingSlice,
  MultileavingSliceCredit,
  MultileavingSlicesTable,
} from "../../../../scripts/interleaving/multileave-slices";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatP, formatRate } from "~/utils/format";
import { correctionHolds, correctionName, SliceMembership, useSliceChoice } from "../slice-controls";
import { CREDITS, ci } from "./verdict";

export interface MultileavingSlices {
  /** "subject" (of each session's proposal) or an imported convener attribute. */
  attribute: string;
  holm: MultileavingSlicesTable;
  bh: MultileavingSlicesTable;
}

/**
 * A multileaved experiment's result broken down by the subject of each session's proposal or by an
 * imported convener attribute: per slice, credit and pair of systems, the sessions preferring either, the
 * first system's wins, losses and ties, its share with the 95% interval and the sign-test p, and p
 * adjusted over every slice, pair and credit of the table (Holm by default, Benjamini–Hochberg
 * selectable), the number of comparisons stated; each slice's ranking beside its credit. A slice with too
 * few conveners says so instead of a number.
 */
export function MultileavingSlicesSection({
  multileavingSlices: slices,
}: {
  /** Null for a two-system experiment or before the first session. */
  multileavingSlices: Json<{ subject: MultileavingSlices; byConvener: MultileavingSlices[] }> | null;
}) {
  return slices ? <SlicesOf subject={slices.subject} byConvener={slices.byConvener} /> : null;
}

function SlicesOf({
  subject,
  byConvener,
}: {
  subject: Json<MultileavingSlices>;
  byConvener: Json<MultileavingSlices>[];
}) {
  const { shown, chosen, correction, controls } = useSliceChoice(subject, byConvener);
  const bySubject = shown.attribute === "subject";
  const title = `Slices by ${shown.attribute}`;
  const enough = chosen.slices.filter((s) => !s.tooFew).length;
  const first = chosen.slices.find((s) => !s.tooFew);
  const systems = first && !first.tooFew ? first.credits[0].result.systems.length : 0;
  return (
    <section aria-label="Slices">
      <h2>{title}</h2>
      {controls}
      <p className="muted">
        {formatCount(chosen.comparisons)} comparisons ({enough}{" "}
        {bySubject ? "subjects" : `values of ${shown.attribute}`} with enough conveners ×{" "}
        {(systems * (systems - 1)) / 2} pairs of systems × 2 credits, those with a decided session), p
        adjusted by {correctionName[correction]} across all of them ({correctionHolds(correction)}). Each row
        is the first system&apos;s share against the second; each slice is read as the whole experiment, its
        intervals a bootstrap over the slice&apos;s conveners.{" "}
        <SliceMembership attribute={shown.attribute} convenerAttributes={byConvener.length} />
      </p>
      <TableScroll label={title}>
        <table aria-label={title}>
          <thead>
            <tr>
              <th>{bySubject ? "Subject" : shown.attribute}</th>
              <th>Credit</th>
              <th>Pair</th>
              <th className="num">Sessions with a preference</th>
              <th className="num">Wins</th>
              <th className="num">Losses</th>
              <th className="num">Ties</th>
              <th>Share (95% interval)</th>
              <th className="num">p</th>
              <th className="num">Adjusted p</th>
            </tr>
          </thead>
          <tbody>
            {chosen.slices.map((s) => (
              <SliceRows key={s.slice} slice={s} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function SliceRows({ slice }: { slice: Json<MultileavingSlice> }) {
  if (slice.tooFew)
    return (
      <tr>
        <td>{slice.slice}</td>
        <td colSpan={9} className="muted">
          {slice.reason} ({formatCount(slice.sessions)} sessions)
        </td>
      </tr>
    );
  return (
    <>
      {slice.credits.map((c, i) => (
        <CreditRows
          key={c.credit}
          credit={c}
          head={
            i === 0 ? (
              <>
                {slice.slice}
                <div className="muted">
                  {formatCount(slice.conveners)} conveners, {formatCount(slice.sessions)} sessions
                </div>
              </>
            ) : null
          }
        />
      ))}
    </>
  );
}

/** One credit's rows: each unordered pair once, the first system as the experiment orders them. */
function CreditRows({ credit: c, head }: { credit: Json<MultileavingSliceCredit>; head: ReactNode }) {
  const { systems, pairs, ranking } = c.result;
  const rows = pairs
    .map((p, i) => ({ p, adjustedP: c.adjustedP[i] }))
    .filter(({ p }) => systems.indexOf(p.system) < systems.indexOf(p.other));
  return (
    <>
      {rows.map(({ p, adjustedP }, i) => (
        <tr key={`${c.credit}-${p.system}-${p.other}`} data-credit={c.credit}>
          <td>{i === 0 ? head : ""}</td>
          <td>
            {i === 0 ? (
              <>
                {CREDITS.find((k) => k.key === c.credit)!.label}
                <div className="muted">ranks {ranking.map((r) => r.system).join(" > ")}</div>
              </>
            ) : (
              ""
            )}
          </td>
          {/* System keys are ids: "baseline over hybrid" stays on one line and the table scrolls. */}
          <td className="id">
            {p.system} over {p.other}
          </td>
          <td className="num">{formatCount(p.wins + p.losses + p.ties)}</td>
          <td className="num">{formatCount(p.wins)}</td>
          <td className="num">{formatCount(p.losses)}</td>
          <td className="num">{formatCount(p.ties)}</td>
          <td>
            {formatRate(p.share)} <span className="muted">{ci(p.ci)}</span>
          </td>
          <td className="num">{formatP(p.pValue)}</td>
          <td className="num">{formatP(adjustedP)}</td>
        </tr>
      ))}
    </>
  );
}
