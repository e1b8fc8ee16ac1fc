import type { Report } from "./cells";

/** What each system's figures suggest doing: its display depth, weak subjects and why it misses at 10. */
export function OfflineAdvice({ report }: { report: Report }) {
  return (
    <ul>
      {report.systems.map((s) => {
        const missedAtTen = s.failureBreakdown.find((f) => f.k === 10);
        return (
          <li key={s.key}>
            <strong>{s.name}</strong>:{" "}
            {s.hints.displayDepth !== null
              ? `show at least ${s.hints.displayDepth} candidates by default (90% of proposals have their first committee member by then)`
              : "no proposal has a committee member in its list"}
            {s.hints.weakSubjects.length
              ? `; significantly below its overall hit rate in ${s.hints.weakSubjects.join(", ")}`
              : ""}
            . Of the proposals missed at 10, {missedAtTen?.recallFailures ?? "—"} never retrieve a committee
            member (recall failures) and {missedAtTen?.rankingFailures ?? "—"} rank them too low (ranking
            failures).
          </li>
        );
      })}
    </ul>
  );
}
