import { useState, type ReactNode } from "react";
import type { Correction } from "../../../scripts/stats/multiple-testing";
import { NO_VALUE_SLICE } from "../../../scripts/online/slice-names";

/** The corrections' names as the pages write them. */
export const correctionName: Record<Correction, string> = { holm: "Holm", bh: "Benjamini–Hochberg" };

/** What each correction holds, as the pages' comparison sentences say it. */
export const correctionHolds = (correction: Correction) =>
  correction === "holm" ? "the family-wise error rate held" : "the false discovery rate held";

/**
 * What the slice selector offers: the subject first, then each imported convener attribute; the chosen
 * one's table (an unknown choice falls back to the subject).
 */
export function sliceChoices<S extends { attribute: string }>(subject: S, byConvener: readonly S[]) {
  const all = [subject, ...byConvener];
  return {
    options: all.map((s) => s.attribute),
    pick: (attribute: string) => all.find((s) => s.attribute === attribute) ?? subject,
  };
}

/** One attribute's slice table, adjusted each way. */
export type SliceTables<T> = { attribute: string } & Record<Correction, T>;

/**
 * A slices section's state: the attribute shown (the subject at first) and the correction (Holm at first),
 * the table they pick, and the toolbar that changes them. Both corrections come computed, so a change
 * needs no request.
 */
export function useSliceChoice<T>(
  subject: SliceTables<T>,
  byConvener: readonly SliceTables<T>[],
): { shown: SliceTables<T>; chosen: T; correction: Correction; controls: ReactNode } {
  const [correction, setCorrection] = useState<Correction>("holm");
  const [attribute, setAttribute] = useState("subject");
  const choices = sliceChoices(subject, byConvener);
  const shown = choices.pick(attribute);
  const controls = (
    <SliceControls
      options={choices.options}
      attribute={shown.attribute}
      onAttribute={setAttribute}
      correction={correction}
      onCorrection={setCorrection}
    />
  );
  return { shown, chosen: shown[correction], correction, controls };
}

/** The "Slice by" (subject or a convener attribute) and "Adjust p by" (Holm or BH) selects. */
export function SliceControls({
  options,
  attribute,
  onAttribute,
  correction,
  onCorrection,
}: {
  options: readonly string[];
  attribute: string;
  onAttribute: (attribute: string) => void;
  correction: Correction;
  onCorrection: (correction: Correction) => void;
}) {
  return (
    <div className="toolbar" role="group" aria-label="How the results are sliced">
      <label>
        Slice by{" "}
        <select value={attribute} onChange={(e) => onAttribute(e.target.value)}>
          {options.map((o) => (
            <option key={o} value={o}>
              {o === "subject" ? "subject" : `${o} (convener)`}
            </option>
          ))}
        </select>
      </label>{" "}
      <label>
        Adjust p by{" "}
        <select value={correction} onChange={(e) => onCorrection(e.target.value as Correction)}>
          <option value="holm">Holm</option>
          <option value="bh">Benjamini–Hochberg</option>
        </select>
      </label>
    </div>
  );
}

/**
 * Who counts in a slice, and why there are no slices by convener when no attribute is imported: the
 * sentence each slices section ends its account with (A/B, interleaving, multileave). `afterSemicolon`
 * starts it in lower case, where the A/B page joins it to the sentence before.
 */
export function SliceMembership({
  attribute,
  convenerAttributes,
  afterSemicolon = false,
}: {
  attribute: string;
  convenerAttributes: number;
  afterSemicolon?: boolean;
}) {
  const who =
    attribute === "subject"
      ? "Each session counts in the subject of its proposal."
      : `Each convener counts with all their sessions in their ${attribute} as imported; “${NO_VALUE_SLICE}” holds conveners with none.`;
  return (
    <>
      {afterSemicolon ? who.charAt(0).toLowerCase() + who.slice(1) : who}
      {convenerAttributes === 0
        ? " No convener attribute is imported (import convener-attributes), so there are no slices by convener."
        : ""}
    </>
  );
}
