import type { InterleavingFigures } from "../../../../scripts/interleaving/figures";
import type { InterleavingResult } from "../../../../scripts/interleaving/results";
import type { Json } from "~/utils/json-type";
import { formatCi, formatP, formatRate, verdict, type Verdict } from "~/utils/format";

/** The two credits an interleaved session's preference is read by. */
export const CREDITS = [
  { key: "click", label: "Click credit", noun: "clicks" },
  { key: "adopt", label: "Adoption credit", noun: "adoptions" },
] as const;

/** better / worse / inconclusive for the challenger: its win rate's 95% interval clear of 0.5, or not. */
export function winRateVerdict(r: Pick<Json<InterleavingResult>, "winRate" | "ci">): Verdict {
  if (r.winRate === null || !r.ci) return "inconclusive";
  return verdict(r.winRate - 0.5, { lower: r.ci[0] - 0.5, upper: r.ci[1] - 0.5 }, "higher");
}

/** A win rate's interval, given as [lower, upper], in percent. */
export const ci = (c: readonly number[] | null | undefined) =>
  formatCi(c ? { lower: c[0], upper: c[1] } : null, formatRate);

/** One sentence saying what the click credit (and the adoption credit beside it) lets the analyst conclude. */
export function interleavingVerdictSentence(
  figures: Json<InterleavingFigures>,
  control: string,
  challenger: string,
): string {
  const read = (r: Json<InterleavingResult>) => {
    const v = winRateVerdict(r);
    const figures = `win rate ${formatRate(r.winRate)}, 95% CI ${ci(r.ci)}, sign test p ${formatP(r.pValue).startsWith("<") ? "" : "= "}${formatP(r.pValue)}`;
    if (v === "better") return `conveners prefer ${challenger} to ${control} (${figures})`;
    if (v === "worse") return `conveners prefer ${control} to ${challenger} (${figures})`;
    return `no preference between ${challenger} and ${control} is established yet (${figures})`;
  };
  return `By click credit, ${read(figures.click)}; by adoption credit, ${read(figures.adopt)}.`;
}
