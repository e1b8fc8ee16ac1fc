import { Form } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";

/**
 * Deleting a draft takes two steps without any script: open the disclosure, then press the button
 * that names what goes. Only drafts get this (the server refuses anything else).
 */
export function DeleteDraft({ what }: { what: string }) {
  return (
    <details className="admin-delete">
      <summary>Delete this draft…</summary>
      <p>
        This removes the {what} for good. It was never launched, so no work is lost, but it cannot be undone.
      </p>
      <Form method="post">
        <CsrfInput />
        <button type="submit" name="intent" value="delete" className="button-danger">
          Yes, delete the {what}
        </button>
      </Form>
    </details>
  );
}
