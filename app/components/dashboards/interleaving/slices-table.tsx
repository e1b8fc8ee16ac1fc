import type { InterleavingSlice, InterleavingSlicesTable } from "../../../../scripts/interleaving/slices";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatP, formatRate } from "~/utils/format";
import { correctionHolds, correctionName, SliceMembership, useSliceChoice } from "../slice-controls";
import { CREDITS, ci } from "./verdict";

export interface InterleavingSlices {
  /** "subject" (of each session's proposal) or an imported convener attribute. */
  attribute: string;
  holm: InterleavingSlicesTable;
  bh: InterleavingSlicesTable;
}

/**
 * The interleaving result broken down by the subject of each session's proposal or by an imported
 * convener attribute: per slice and credit the sessions with a preference, the challenger's wins,
 * losses and ties, its win rate with the 95% interval and the sign-test p, and p adjusted over every
 * slice and credit of the table (Holm by default, Benjamini–Hochberg selectable), the number of
 * comparisons stated. A slice with too few conveners says so instead of a number.
 */
export function InterleavingSlicesSection({
  slices,
  control,
  challenger,
}: {
  /** Null for a multileaved experiment or before the first session. */
  slices: Json<{ subject: InterleavingSlices; byConvener: InterleavingSlices[] }> | null;
  control: string;
  challenger: string;
}) {
  return slices ? (
    <SlicesOf
      subject={slices.subject}
      byConvener={slices.byConvener}
      control={control}
      challenger={challenger}
    />
  ) : null;
}

function SlicesOf({
  subject,
  byConvener,
  control,
  challenger,
}: {
  subject: Json<InterleavingSlices>;
  byConvener: Json<InterleavingSlices>[];
  control: string;
  challenger: string;
}) {
  const { shown, chosen, correction, controls } = useSliceChoice(subject, byConvener);
  const bySubject = shown.attribute === "subject";
  const title = `Slices by ${shown.attribute}`;
  const enough = chosen.slices.filter((s) => !s.tooFew).length;
  return (
    <section aria-label="Slices">
      <h2>{title}</h2>
      {controls}
      <p className="muted">
        {formatCount(chosen.comparisons)} comparisons ({enough}{" "}
        {bySubject ? "subjects" : `values of ${shown.attribute}`} with enough conveners × 2 credits, those
        with a decided session), p adjusted by {correctionName[correction]} across all of them (
        {correctionHolds(correction)}). Wins and losses are {challenger}&apos;s against {control}; each slice
        is read as the whole experiment, its interval a bootstrap over the slice&apos;s conveners.{" "}
        <SliceMembership attribute={shown.attribute} convenerAttributes={byConvener.length} />
      </p>
      <TableScroll label={title}>
        <table aria-label={title}>
          <thead>
            <tr>
              <th>{bySubject ? "Subject" : shown.attribute}</th>
              <th>Credit</th>
              <th className="num">Sessions with a preference</th>
              <th className="num">Wins</th>
              <th className="num">Losses</th>
              <th className="num">Ties</th>
              <th>Win rate (95% interval)</th>
              <th className="num">p</th>
              <th className="num">Adjusted p</th>
            </tr>
          </thead>
          <tbody>
            {chosen.slices.map((s) => (
              <SliceRows key={s.slice} slice={s} control={control} challenger={challenger} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function SliceRows({
  slice,
  control,
  challenger,
}: {
  slice: Json<InterleavingSlice>;
  control: string;
  challenger: string;
}) {
  if (slice.tooFew)
    return (
      <tr>
        <td>{slice.slice}</td>
        <td colSpan={8} className="muted">
          {slice.reason} ({formatCount(slice.sessions)} sessions)
        </td>
      </tr>
    );
  return (
    <>
      {slice.credits.map((c, i) => (
        <tr key={c.credit}>
          <td>
            {i === 0 ? (
              <>
                {slice.slice}
                <div className="muted">
                  {formatCount(slice.conveners)} conveners, {formatCount(slice.sessions)} sessions
                </div>
              </>
            ) : (
              ""
            )}
          </td>
          <td>{CREDITS.find((k) => k.key === c.credit)!.label}</td>
          <td className="num">{formatCount(c.withPreference)}</td>
          <td className="num">{formatCount(c.result.wins[challenger] ?? 0)}</td>
          <td className="num">{formatCount(c.result.wins[control] ?? 0)}</td>
          <td className="num">{formatCount(c.result.ties)}</td>
          <td>
            {formatRate(c.result.winRate)} <span className="muted">{ci(c.result.ci)}</span>
          </td>
          <td className="num">{formatP(c.result.pValue)}</td>
          <td className="num">{formatP(c.adjustedP)}</td>
        </tr>
      ))}
    </>
  );
}
