import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatNumber, formatRate } from "~/utils/format";

interface NeedsGradeRow {
  item: string;
  proposal: string;
  candidate: string;
  grades: number;
  label: number;
  changeChance: number;
  expectedFlips: number;
  expectedShift: number;
}

/**
 * The admin's "needs another grade" list (scripts/judgement/needs-grade.ts): the pairs whose next grade
 * is expected to move the systems' nDCG@10 order most. Candidate ids are for admins only.
 */
export function NeedsGradeTable({ rows }: { rows: NeedsGradeRow[] }) {
  const label = "Pairs that need another grade";
  return (
    <section aria-labelledby="needs-grade-heading">
      <h2 id="needs-grade-heading">Needs another grade</h2>
      <p className="muted">
        Pairs whose label one more grade could change, ranked by how much that is expected to move the
        systems&apos; nDCG@10 order: expected order reversals between systems, then the expected movement of
        their differences. The next grade&apos;s chances are the pair&apos;s own grades smoothed towards the
        campaign&apos;s.
      </p>
      {rows.length === 0 ? (
        <div className="empty">No pair&apos;s label would change with one more grade.</div>
      ) : (
        <TableScroll label={label}>
          <table aria-label={label}>
            <thead>
              <tr>
                <th>Proposal</th>
                <th>Candidate</th>
                <th className="num">Grades</th>
                <th className="num">Label</th>
                <th className="num">Chance the label changes</th>
                <th className="num">Expected order reversals</th>
                <th className="num">Expected nDCG@10 shift</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.item}>
                  <td>{r.proposal}</td>
                  <td>{r.candidate}</td>
                  <td className="num">{formatCount(r.grades)}</td>
                  <td className="num">{formatCount(r.label)}</td>
                  <td className="num">{formatRate(r.changeChance)}</td>
                  <td className="num">{formatNumber(r.expectedFlips)}</td>
                  <td className="num">{formatNumber(r.expectedShift)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
