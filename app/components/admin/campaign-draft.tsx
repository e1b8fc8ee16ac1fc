import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { campaignPageSchema } from "../../../scripts/inputs/campaigns";
import { CampaignFields, type CampaignFormValues } from "~/components/admin/campaign-form";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { FormErrors } from "~/components/form-parts";
import { ConfirmAction } from "~/components/confirm-action";
import { IntentButton } from "~/components/intent-button";
import { formatCount } from "~/utils/format";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

type ExpertLoad = { graded: number; total: number };

/** What closing ends, in counts: who still has pairs to grade, and how many. */
export function closingConsequences(perExpert: readonly ExpertLoad[]): string[] {
  const behind = perExpert.filter((e) => e.graded < e.total);
  const ungraded = behind.reduce((sum, e) => sum + e.total - e.graded, 0);
  const who = behind.length
    ? `${plural(behind.length, "expert has", "experts have")} ${plural(ungraded, "ungraded pair")}; they can no longer grade.`
    : "Every expert has graded every pair; grades can no longer change.";
  return [who, "You can reopen the campaign afterwards; the audit log records both."];
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Launch a draft, close a running campaign (after confirming), reopen a closed one. */
export function CampaignStatusForm({
  status,
  name,
  perExpert,
  answer,
  busy,
}: {
  status: string;
  name: string;
  perExpert: readonly ExpertLoad[];
  answer: FormAnswer | null | undefined;
  busy: boolean;
}) {
  if (status === "running")
    return (
      <div className="toolbar">
        <ConfirmAction
          intent="close"
          label="Close campaign"
          busyLabel="Closing…"
          title={`Close campaign ${name}?`}
          consequences={closingConsequences(perExpert)}
          confirmLabel="Yes, close the campaign"
          answer={answer}
          disabled={busy}
        />
      </div>
    );
  return (
    <Form method="post" className="toolbar">
      <CsrfInput />
      {status === "draft" ? (
        <IntentButton intent="launch" busyLabel="Launching…" disabled={busy}>
          Launch campaign
        </IntentButton>
      ) : null}
      {status === "closed" ? (
        <IntentButton intent="reopen" busyLabel="Reopening…" className="button-secondary" disabled={busy}>
          Reopen campaign
        </IntentButton>
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
      <DeleteDraft what={`campaign ${name}`} answer={answer} />
    </section>
  );
}
