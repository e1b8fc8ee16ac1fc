import { answerErrors, type FormAnswer } from "~/forms/forms";
import { usePageSettling } from "~/forms/pending";

/**
 * The page's one place for a form's answer: what was refused (role alert) or what was done (role
 * status). The forms of `inPlace` show their own errors, each next to its field or in the form.
 */
export function ActionNotice({
  answer,
  inPlace = [],
  error,
}: {
  answer?: Pick<FormAnswer, "intent" | "result" | "done"> | null;
  inPlace?: readonly string[];
  /** A sentence of a page without a form answer (a loader's refusal). */
  error?: string | null;
}) {
  const settling = usePageSettling();
  const shownInPlace = answer?.intent ? inPlace.includes(answer.intent) : false;
  const errors = error ? [error] : shownInPlace ? [] : answerErrors(answer);
  if (errors.length > 1)
    return (
      <ul className="notice error" role="alert">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    );
  if (errors.length === 1)
    return (
      <p className="notice error" role="alert">
        {errors[0]}
      </p>
    );
  // A success shown before the reloaded data would sit beside the old state ("Closed" next to "running").
  if (answer?.done && !settling)
    return (
      <p className="notice success" role="status">
        {answer.done}
      </p>
    );
  return null;
}

/** What ties a control to its errors (shown by `FieldError` under the id `${id}-error`). */
export function errorAttributes(id: string, errors: readonly string[] | null | undefined) {
  return {
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": errors?.length ? `${id}-error` : undefined,
  } as const;
}

/** A field's errors, next to the field (`errorAttributes` points the control at it). */
export function FieldError({ id, errors }: { id: string; errors: readonly string[] | null | undefined }) {
  return (
    <p className="field-error" id={`${id}-error`}>
      {errors?.join(" ")}
    </p>
  );
}

/** A form's own errors (not of one field), in the form, above its button. */
export function FormErrors({ errors }: { errors: readonly string[] | null | undefined }) {
  return errors?.length ? (
    <p className="form-error" role="alert">
      {errors.join(" ")}
    </p>
  ) : null;
}

type SubjectOption = { id: number; key: string; name: string };

/** Which proposals an experiment or campaign covers: all of them (or `allLabel`), or those of one subject. */
export function SubjectScopeSelect(props: {
  subjects: SubjectOption[];
  defaultValue?: string;
  allLabel?: string;
}) {
  return (
    <div>
      <label htmlFor="subject">Proposals</label>
      <select id="subject" name="subject" defaultValue={props.defaultValue ?? ""}>
        <option value="">{props.allLabel ?? "All proposals"}</option>
        {props.subjects.map((s) => (
          <option key={s.id} value={s.key}>
            Subject: {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The alternative to a subject: an explicit list of proposal ids. */
export function ProposalListField({
  defaultValue,
  errors,
}: {
  defaultValue?: readonly string[];
  errors?: readonly string[];
}) {
  return (
    <div className="field admin-form-block">
      <label htmlFor="proposals">Or only these proposals (ids, separated by spaces or commas)</label>
      <textarea
        id="proposals"
        name="proposals"
        rows={2}
        defaultValue={defaultValue?.join(" ")}
        {...errorAttributes("proposals", errors)}
      />
      <FieldError id="proposals" errors={errors} />
    </div>
  );
}
