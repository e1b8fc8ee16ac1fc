import type { Verdict } from "~/utils/format";

/** A difference's reading as a coloured word: "better", "worse" or "inconclusive" (never colour alone). */
export function VerdictLabel({ verdict }: { verdict: Verdict }) {
  return <span className={`verdict verdict-${verdict}`}>{verdict}</span>;
}
