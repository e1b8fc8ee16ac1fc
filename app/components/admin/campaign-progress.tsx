import { Form } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";
import { formatCi, formatNumber, plural } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";
import { Badge } from "~/components/badge";

/** Agreement figures through the one formatting module (three significant digits). */
const num = (v: number | null | undefined) => formatNumber(v);

/** How far each expert is: assignments, finished ones, grades given. */
export function ExpertProgress({
  perExpert,
}: {
  perExpert: {
    expertId: number;
    name: string;
    assignments: number;
    finished: number;
    graded: number;
    total: number;
  }[];
}) {
  return (
    <>
      <h2>Progress per expert</h2>
      {perExpert.length === 0 ? (
        <div className="empty">Nobody is assigned yet: launch the campaign.</div>
      ) : (
        <TableScroll label="Progress per expert">
          <table aria-label="Progress per expert">
            <thead>
              <tr>
                <th>Expert</th>
                <th className="num">Proposals</th>
                <th className="num">Finished</th>
                <th className="num">Graded</th>
              </tr>
            </thead>
            <tbody>
              {perExpert.map((e) => (
                <tr key={e.expertId}>
                  <td>{e.name}</td>
                  <td className="num">{e.assignments}</td>
                  <td className="num">{e.finished}</td>
                  <td className="num">
                    {e.graded} / {e.total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

type Assignment = {
  assignmentId: number;
  proposal: string;
  expert: string;
  graded: number;
  total: number;
  /** Made by "ask for more grades": it covers the chosen pairs only, not the proposal's pool. */
  scoped: boolean;
  finishedAt: string | null;
  choices: { id: number; name: string }[] | null;
};

/** The form that hands one assignment to another eligible expert (intent `reassign`). */
function ReassignForm({ assignment: a }: { assignment: Assignment }) {
  if (a.choices === null) return null;
  if (a.choices.length === 0) return <span className="muted">No eligible expert</span>;
  return (
    <Form method="post" className="toolbar">
      <CsrfInput />
      <input type="hidden" name="assignment" value={a.assignmentId} />
      <select name="expert" aria-label={`Expert to take over ${a.proposal} from ${a.expert}`} defaultValue="">
        <option value="">—</option>
        {a.choices.map((e) => (
          <option key={e.id} value={e.id}>
            {e.name}
          </option>
        ))}
      </select>
      <button type="submit" name="intent" value="reassign" className="button-secondary">
        Reassign
      </button>
    </Form>
  );
}

/** Every assignment's progress, each with its reassign form, behind a disclosure. */
export function AssignmentProgress({ assignments }: { assignments: Assignment[] }) {
  if (!assignments.length) return null;
  return (
    <details>
      <summary>Progress per proposal ({assignments.length} assignments); reassign a stalled one</summary>
      <TableScroll label="Progress per proposal">
        <table aria-label="Progress per proposal">
          <thead>
            <tr>
              <th>Proposal</th>
              <th>Expert</th>
              <th className="num">Graded</th>
              <th>Reassign to</th>
            </tr>
          </thead>
          <tbody>
            {assignments.map((a) => (
              <tr key={a.assignmentId}>
                <td className="id">{a.proposal}</td>
                <td>{a.expert}</td>
                <td className="num">
                  {a.scoped ? <Badge>chosen pairs</Badge> : null} {a.graded} / {a.total}
                  {a.finishedAt ? " ✓" : ""}
                </td>
                <td>
                  <ReassignForm assignment={a} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}

type Agreement = {
  alpha: number | null;
  ci: { lower: number; upper: number } | null;
  items: number;
  raters: number;
  pairableValues: number;
  leaveOneOut: { rater: string; ratings: number; alpha: number | null }[];
};

/** Krippendorff's α with its interval, and α without each expert in turn. */
export function AgreementSection({ agreement }: { agreement: Agreement | null }) {
  return (
    <>
      <h2>Agreement</h2>
      {agreement ? (
        <>
          <p>
            Krippendorff's α (ordinal) = <strong>{num(agreement.alpha)}</strong>, 95% CI{" "}
            {formatCi(agreement.ci, formatNumber)} over {plural(agreement.items, "pair")},{" "}
            {plural(agreement.raters, "expert")}, {plural(agreement.pairableValues, "pairable grade")}.
          </p>
          <TableScroll label="Leave-one-out agreement">
            <table aria-label="Leave-one-out agreement">
              <thead>
                <tr>
                  <th>Without expert</th>
                  <th className="num">Grades</th>
                  <th className="num">α</th>
                </tr>
              </thead>
              <tbody>
                {agreement.leaveOneOut.map((l) => (
                  <tr key={l.rater}>
                    <td>{l.rater}</td>
                    <td className="num">{l.ratings}</td>
                    <td className="num">{num(l.alpha)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : (
        <div className="empty">No grades yet.</div>
      )}
    </>
  );
}
