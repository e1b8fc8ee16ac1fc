import type { Verdict } from "~/utils/format";

/** A difference's reading as a coloured word: "better", "worse" or "inconclusive" (never colour alone). */
export function VerdictLabel({ verdict }: { verdict: Verdict }) {
  return <span className={`verdict verdict-${verdict}`}>{verdict}</span>;
}

/** A formatted difference coloured by its verdict, followed by the word. */
export function VerdictValue({ text, verdict }: { text: string; verdict: Verdict }) {
  return (
    <span className={`verdict verdict-${verdict}`}>
      {text} <span className="verdict-word">({verdict})</span>
    </span>
  );
}
