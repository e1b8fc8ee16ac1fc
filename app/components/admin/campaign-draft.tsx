import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { campaignPageSchema } from "../../../scripts/inputs/campaigns";
import { CampaignFields, type CampaignFormValues } from "~/components/admin/campaign-form";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

/** Launch a draft, close a running campaign: the one button its status allows. */
export function CampaignStatusForm({ status, busy }: { status: string; busy: boolean }) {
  return (
    <Form method="post" className="toolbar">
      <CsrfInput />
      {status === "draft" ? (
        <button type="submit" name="intent" value="launch" disabled={busy}>
          Launch campaign
        </button>
      ) : null}
      {status === "running" ? (
        <button type="submit" name="intent" value="close" className="button-danger" disabled={busy}>
          Close campaign
        </button>
      ) : null}
    </Form>
  );
}

/** A draft's edit form, prefilled, checked by the page's schema in the browser and on the server. */
export function EditDraftPanel({
  draft,
  name,
  answer,
  busy,
}: {
  draft: {
    systems: string[];
    subjects: { id: number; key: string; name: string }[];
    experts: { email: string; name: string }[];
    initial: CampaignFormValues;
  };
  name: string;
  answer: FormAnswer | null | undefined;
  busy: boolean;
}) {
  const result = resultFor(answer, "update");
  const [form] = useForm({
    id: "edit-draft-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, campaignPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="panel admin-form-panel" aria-labelledby="edit-draft">
      <h2 id="edit-draft">Edit this draft</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <CampaignFields
          systems={draft.systems}
          subjects={draft.subjects}
          experts={draft.experts}
          initial={draft.initial}
          errors={errorsByField(form.allErrors)}
        />
        <FormErrors errors={result ? formErrorsOf(answer) : null} />
        <button type="submit" name="intent" value="update" disabled={busy}>
          Save draft
        </button>
      </Form>
      <DeleteDraft what={`campaign ${name}`} />
    </section>
  );
}
