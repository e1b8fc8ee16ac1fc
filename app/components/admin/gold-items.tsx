import { Form, Link } from "@remix-run/react";
import { CsrfInput } from "~/utils/csrf";
import { formatCount } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";

const gradeNames = ["1 irrelevant", "2 far-fetched", "3 relevant", "4 highly relevant"];

/**
 * The admin's gold items of a campaign: a form that attaches a known grade to one pooled pair (by the
 * proposal's and candidate's ids), and the list of gold items, each with a remove button. Experts are
 * never told which pairs are gold; many at once come from a truth file on the import page.
 */
export function GoldItemsPanel({
  truth,
  busy,
}: {
  truth: { itemId: number; proposal: string; candidate: string; grade: number }[];
  busy: boolean;
}) {
  return (
    <section className="panel admin-form-panel" aria-labelledby="gold-items-heading">
      <h2 id="gold-items-heading">Gold items ({formatCount(truth.length)})</h2>
      <p className="muted">
        Attach the known grade of a pair this campaign pooled; experts grade it like any other card and never
        learn it is gold. Many at once: import a <Link to="/admin/import">truth file</Link> (campaign,
        proposal, candidate, grade).
      </p>
      <Form method="post" className="toolbar">
        <CsrfInput />
        <label>
          Proposal id <input name="proposal" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Candidate id <input name="candidate" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Known grade{" "}
          <select name="grade" required defaultValue="">
            <option value="" disabled>
              —
            </option>
            {gradeNames.map((name, i) => (
              <option key={name} value={i + 1}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" name="intent" value="attach-truth" disabled={busy}>
          Attach known grade
        </button>
      </Form>
      {truth.length ? (
        <details>
          <summary>The {formatCount(truth.length)} gold items</summary>
          <TableScroll label="Gold items of this campaign">
            <table aria-label="Gold items of this campaign">
              <thead>
                <tr>
                  <th>Proposal</th>
                  <th>Candidate</th>
                  <th className="num">Known grade</th>
                  <th>Remove</th>
                </tr>
              </thead>
              <tbody>
                {truth.map((t) => (
                  <tr key={t.itemId}>
                    <td>{t.proposal}</td>
                    <td>{t.candidate}</td>
                    <td className="num">{t.grade}</td>
                    <td>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="item" value={t.itemId} />
                        <button
                          type="submit"
                          name="intent"
                          value="remove-truth"
                          className="button-secondary"
                          disabled={busy}
                          aria-label={`Remove gold item ${t.proposal} / ${t.candidate}`}
                        >
                          Remove
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      ) : null}
    </section>
  );
}
