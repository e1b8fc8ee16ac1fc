import { Form } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";

/** One pair of the admin's disagreement queue: names and titles are for admins only. */
export interface QueueRow {
  itemId: number;
  proposal: string;
  title: string;
  candidate: string;
  candidateName: string;
  grades: { expert: string; grade: number | null; rationale: string }[];
  adjudicated: number | null;
  median: number | null;
  note: string | null;
}

/** A pair of the queue: who it is about, every grade with its rationale, and the final grade's form. */
export function DisagreementRow({ pair: p }: { pair: QueueRow }) {
  return (
    <tr>
      <td>
        {p.title} <span className="muted id">({p.proposal})</span>
      </td>
      <td>
        {p.candidateName} <span className="muted id">({p.candidate})</span>
      </td>
      <td>
        {p.grades.map((g) => (
          <div key={g.expert}>
            <strong>{g.grade ?? "can't judge"}</strong> by {g.expert}
            {g.rationale ? `: ${g.rationale}` : ""}
          </div>
        ))}
      </td>
      <td>
        {p.adjudicated !== null ? (
          <p className="admin-adjudicated">
            Final grade <strong>{p.adjudicated}</strong>
            {p.note ? `: ${p.note}` : " (no note)"}
          </p>
        ) : null}
        <AdjudicateForm pair={p} />
      </td>
    </tr>
  );
}

/** The final grade (the adjudicated one, else the median, else 3) and a note; posts `intent=adjudicate`. */
function AdjudicateForm({ pair: p }: { pair: QueueRow }) {
  return (
    <Form
      method="post"
      className="toolbar"
      aria-label={`Adjudicate ${p.title} ${p.candidateName}`}
      preventScrollReset
    >
      <CsrfInput />
      <input type="hidden" name="item" value={p.itemId} />
      <select name="grade" defaultValue={String(p.adjudicated ?? p.median ?? 3)} aria-label="Final grade">
        {[1, 2, 3, 4].map((g) => (
          <option key={g}>{g}</option>
        ))}
      </select>
      <input name="note" placeholder="Note" aria-label="Note" defaultValue={p.note ?? ""} />
      <button type="submit" name="intent" value="adjudicate">
        {p.adjudicated !== null ? "Change" : "Adjudicate"}
      </button>
    </Form>
  );
}
