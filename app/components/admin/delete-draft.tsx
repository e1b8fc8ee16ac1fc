import { ConfirmAction } from "~/components/confirm-action";
import type { FormAnswer } from "~/forms/forms";

/** Deleting a draft, behind the confirmation dialog. Only drafts get this (the server refuses anything else). */
export function DeleteDraft({ what, answer }: { what: string; answer: FormAnswer | null | undefined }) {
  return (
    <div className="admin-delete">
      <ConfirmAction
        intent="delete"
        label="Delete this draft…"
        busyLabel="Deleting…"
        title={`Delete the ${what}?`}
        consequences={[
          `This removes the ${what} for good. It was never launched, so no work is lost, but it cannot be undone.`,
        ]}
        confirmLabel={`Yes, delete the ${what}`}
        answer={answer}
      />
    </div>
  );
}
