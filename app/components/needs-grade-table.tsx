import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { campaignPageSchema } from "../../scripts/inputs/campaigns";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { TableScroll } from "~/components/table-scroll";
import { formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";
import { CsrfInput } from "~/security/csrf";
import { formatCount, formatNumber, formatRate } from "~/utils/format";
import {
  DS_MIN_GRADES_PER_PAIR,
  DS_MIN_RATERS,
  type NextGradeBasis as Basis,
} from "../../scripts/judgement/needs-grade-basis";

interface NeedsGradeRow {
  item: string;
  proposal: string;
  candidate: string;
  grades: number;
  /** Grades asked for this pair ("ask for more grades") and not given yet. */
  pending: number;
  label: number;
  changeChance: number;
  expectedFlips: number;
  expectedShift: number;
  basis: Basis;
}

/**
 * The admin's "needs another grade" list (scripts/judgement/needs-grade.ts): the pairs whose next grade
 * is expected to move the systems' nDCG@10 order most, and the form that asks for more grades of the
 * top ones (intent `request-grades`). Candidate ids are for admins only.
 */
export function NeedsGradeTable({
  rows,
  answer,
  busy,
}: {
  rows: NeedsGradeRow[];
  answer: FormAnswer | null | undefined;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="needs-grade-heading">
      <h2 id="needs-grade-heading">Needs another grade</h2>
      <p className="muted">
        Pairs whose label one more grade could change, ranked by how much that is expected to move the
        systems&apos; nDCG@10 order: expected order reversals between systems, then the expected movement of
        their differences. <NextGradeBasis basis={rows[0]?.basis} />
      </p>
      <p className="muted">
        Grades are asked per pair: each chosen pair gets that many more grades, from experts who never had it;
        their assignment shows them only the chosen pairs of its proposal, not its whole pool.{" "}
        <em>Asked, not given yet</em> counts the grades already asked for a pair that have not come in.
      </p>
      {rows.length === 0 ? (
        <div className="empty">No pair&apos;s label would change with one more grade.</div>
      ) : (
        <>
          <RequestGradesForm items={rows.map((r) => r.item)} answer={answer} busy={busy} />
          <NeedsGradeRows rows={rows} />
        </>
      )}
    </section>
  );
}

/**
 * More grades for the top pairs: each pair gets that many more grades, from experts chosen as at launch
 * who never had it, whose assignment covers only chosen pairs of its proposal (db/campaigns/grade-requests.ts).
 */
function RequestGradesForm({
  items,
  answer,
  busy,
}: {
  items: string[];
  answer: FormAnswer | null | undefined;
  busy: boolean;
}) {
  const result = resultFor(answer, "request-grades");
  const [form, fields] = useForm({
    id: "request-grades-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, campaignPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errors = (name: "top" | "raters") => fields[name as keyof typeof fields]?.errors;
  return (
    <Form method="post" {...getFormProps(form)}>
      <CsrfInput />
      <input type="hidden" name="items" value={items.join(",")} />
      <div className="toolbar">
        <label>
          Pairs from the top{" "}
          <input
            name="top"
            type="number"
            min={1}
            max={items.length}
            defaultValue={Math.min(5, items.length)}
            required
            {...errorAttributes("request-top", errors("top"))}
          />
        </label>
        <label>
          More grades per pair{" "}
          <input
            name="raters"
            type="number"
            min={1}
            max={5}
            defaultValue={1}
            required
            {...errorAttributes("request-raters", errors("raters"))}
          />
        </label>
        <button type="submit" name="intent" value="request-grades" disabled={busy}>
          Ask for more grades
        </button>
      </div>
      <FieldError id="request-top" errors={errors("top")} />
      <FieldError id="request-raters" errors={errors("raters")} />
      <FormErrors errors={result ? formErrorsOf(answer) : null} />
    </Form>
  );
}

function NeedsGradeRows({ rows }: { rows: NeedsGradeRow[] }) {
  const label = "Pairs that need another grade";
  return (
    <TableScroll label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            <th>Proposal</th>
            <th>Candidate</th>
            <th className="num">Grades</th>
            <th className="num">Asked, not given yet</th>
            <th className="num">Label</th>
            <th className="num">Chance the label changes</th>
            <th className="num">Expected order reversals</th>
            <th className="num">Expected nDCG@10 shift</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.item}>
              <td className="id">{r.proposal}</td>
              <td className="id">{r.candidate}</td>
              <td className="num">{formatCount(r.grades)}</td>
              <td className="num">{formatCount(r.pending)}</td>
              <td className="num">{formatCount(r.label)}</td>
              <td className="num">{formatRate(r.changeChance)}</td>
              <td className="num">{formatNumber(r.expectedFlips)}</td>
              <td className="num">{formatNumber(r.expectedShift)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Which estimate of the next grade the ranking used (scripts/judgement/needs-grade.ts, nextGradeChances). */
function NextGradeBasis({ basis }: { basis: NeedsGradeRow["basis"] | undefined }) {
  if (basis === "dawid-skene")
    return (
      <>
        Uncertainty from Dawid–Skene: the next grade&apos;s chances come from the pair&apos;s posterior over
        its true grade, fitted on all the campaign&apos;s grades, through the experts&apos; pooled confusion
        matrices.
      </>
    );
  return (
    <>
      Uncertainty from the spread of grades: the next grade&apos;s chances are the pair&apos;s own grades
      smoothed towards the campaign&apos;s (Dawid–Skene needs at least {DS_MIN_RATERS} experts and{" "}
      {DS_MIN_GRADES_PER_PAIR} grades per pair on average).
    </>
  );
}
