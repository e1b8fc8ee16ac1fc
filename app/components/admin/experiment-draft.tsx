import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { experimentPageSchema } from "../../../scripts/inputs/experiments";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { ExperimentFields, type ExperimentFormValues } from "~/components/admin/experiment-form";
import { FormErrors } from "~/components/form-parts";
import { ConfirmAction } from "~/components/confirm-action";
import { IntentButton } from "~/components/intent-button";
import { formatCount } from "~/utils/format";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

type ArmCount = { arm: string; sessions: number; exposedUnits: number };

/** What stopping ends, in counts: the units and sessions so far, and what happens to new events. */
export function stoppingConsequences(counts: readonly ArmCount[]): string[] {
  const units = counts.reduce((sum, c) => sum + c.exposedUnits, 0);
  const sessions = counts.reduce((sum, c) => sum + c.sessions, 0);
  return [
    `${formatCount(units)} ${units === 1 ? "unit is" : "units are"} assigned across ${counts.length} arms, with ${formatCount(sessions)} ${sessions === 1 ? "session" : "sessions"} logged.`,
    "Events dated after the stop are refused and every unit sees the control system.",
    "You can restart the experiment afterwards: each unit keeps its arm, and the audit log records both.",
  ];
}

/** Start a draft, stop a running experiment (after confirming), restart a stopped one. */
export function ExperimentStatusForm({
  status,
  experimentKey,
  counts,
  answer,
}: {
  status: string;
  experimentKey: string;
  counts: readonly ArmCount[];
  answer: FormAnswer | null | undefined;
}) {
  if (status === "running")
    return (
      <div className="toolbar">
        <ConfirmAction
          intent="stop"
          label="Stop experiment"
          busyLabel="Stopping…"
          title={`Stop experiment ${experimentKey}?`}
          consequences={stoppingConsequences(counts)}
          confirmLabel="Yes, stop the experiment"
          answer={answer}
        />
      </div>
    );
  return (
    <Form method="post" className="toolbar">
      <CsrfInput />
      {status === "draft" ? (
        <IntentButton intent="start" busyLabel="Starting…">
          Start experiment
        </IntentButton>
      ) : null}
      {status === "stopped" ? (
        <IntentButton intent="restart" busyLabel="Restarting…" className="button-secondary">
          Restart experiment
        </IntentButton>
      ) : null}
    </Form>
  );
}

/** A draft's edit form, prefilled, checked by the page's schema in the browser and on the server. */
export function EditExperimentDraft({
  draft,
  experimentKey,
  answer,
}: {
  draft: {
    systems: { key: string; name: string }[];
    subjects: { id: number; key: string; name: string }[];
    initial: ExperimentFormValues;
  };
  experimentKey: string;
  answer: FormAnswer | null | undefined;
}) {
  const result = resultFor(answer, "update");
  const [form] = useForm({
    id: "edit-experiment-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, experimentPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="panel admin-form-panel" aria-labelledby="edit-draft">
      <h2 id="edit-draft">Edit this draft</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <ExperimentFields
          systems={draft.systems}
          subjects={draft.subjects}
          initial={draft.initial}
          errors={errorsByField(form.allErrors)}
        />
        <FormErrors errors={result ? formErrorsOf(answer) : null} />
        <button type="submit" name="intent" value="update">
          Save draft
        </button>
      </Form>
      <DeleteDraft what={`experiment ${experimentKey}`} answer={answer} />
    </section>
  );
}
