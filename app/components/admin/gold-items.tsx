import { getFormProps, useForm } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { campaignPageSchema } from "../../../scripts/inputs/campaigns";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { formatCount } from "~/utils/format";
import { formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";
import { TableScroll } from "~/components/table-scroll";

const gradeNames = ["1 irrelevant", "2 far-fetched", "3 relevant", "4 highly relevant"];

type GoldItem = { itemId: number; proposal: string; candidate: string; grade: number };

/** Attaches a known grade to one pooled pair, by the proposal's and candidate's ids (intent `attach-truth`). */
function AttachTruthForm({ answer, busy }: { answer: FormAnswer | null | undefined; busy: boolean }) {
  const result = resultFor(answer, "attach-truth");
  const [form, fields] = useForm({
    id: "attach-truth-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, campaignPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errors = (name: "proposal" | "candidate" | "grade") => fields[name as keyof typeof fields]?.errors;
  return (
    <Form method="post" {...getFormProps(form)}>
      <CsrfInput />
      <div className="toolbar">
        <label>
          Proposal id{" "}
          <input
            name="proposal"
            required
            maxLength={200}
            autoComplete="off"
            {...errorAttributes("truth-proposal", errors("proposal"))}
          />
        </label>
        <label>
          Candidate id{" "}
          <input
            name="candidate"
            required
            maxLength={200}
            autoComplete="off"
            {...errorAttributes("truth-candidate", errors("candidate"))}
          />
        </label>
        <label>
          Known grade{" "}
          <select name="grade" required defaultValue="" {...errorAttributes("truth-grade", errors("grade"))}>
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
      </div>
      <FieldError id="truth-proposal" errors={errors("proposal")} />
      <FieldError id="truth-candidate" errors={errors("candidate")} />
      <FieldError id="truth-grade" errors={errors("grade")} />
      <FormErrors errors={result ? formErrorsOf(answer) : null} />
    </Form>
  );
}

/** The campaign's gold items, each with a remove button (intent `remove-truth`). */
function GoldItemsTable({ truth, busy }: { truth: GoldItem[]; busy: boolean }) {
  return (
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
                <td className="id">{t.proposal}</td>
                <td className="id">{t.candidate}</td>
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
  );
}

/**
 * The admin's gold items of a campaign: a form that attaches a known grade to one pooled pair, and the
 * list of gold items. Experts are never told which pairs are gold; many at once come from a truth file
 * on the import page.
 */
export function GoldItemsPanel({
  truth,
  busy,
  answer,
}: {
  truth: GoldItem[];
  busy: boolean;
  answer: FormAnswer | null | undefined;
}) {
  return (
    <section className="panel admin-form-panel" aria-labelledby="gold-items-heading">
      <h2 id="gold-items-heading">Gold items ({formatCount(truth.length)})</h2>
      <p className="muted">
        Attach the known grade of a pair this campaign pooled; experts grade it like any other card and never
        learn it is gold. Many at once: import a <Link to="/admin/import">truth file</Link> (campaign,
        proposal, candidate, grade).
      </p>
      <AttachTruthForm answer={answer} busy={busy} />
      {truth.length ? <GoldItemsTable truth={truth} busy={busy} /> : null}
    </section>
  );
}
