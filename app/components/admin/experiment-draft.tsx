import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { experimentPageSchema } from "../../../scripts/inputs/experiments";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { ExperimentFields, type ExperimentFormValues } from "~/components/admin/experiment-form";
import { FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

/** Start a draft, stop a running experiment: the one button its status allows. */
export function ExperimentStatusForm({ status }: { status: string }) {
  return (
    <Form method="post" className="toolbar">
      <CsrfInput />
      {status === "draft" ? (
        <button type="submit" name="intent" value="start">
          Start experiment
        </button>
      ) : null}
      {status === "running" ? (
        <button type="submit" name="intent" value="stop" className="button-danger">
          Stop experiment
        </button>
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
      <DeleteDraft what={`experiment ${experimentKey}`} />
    </section>
  );
}
