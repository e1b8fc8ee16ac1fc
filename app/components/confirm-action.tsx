import { Form } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { CsrfInput } from "~/security/csrf";
import type { FormAnswer } from "~/forms/forms";
import { usePendingIntent } from "~/forms/pending";

/** The field the dialog's confirm button posts; a route that requires it refuses a post without it. */
export const CONFIRM_FIELD = "confirmed";

type Props = {
  /** The action's intent (the posted `intent`). */
  intent: string;
  /** The button that opens the dialog, e.g. "Close campaign". */
  label: ReactNode;
  /** The button while the confirmed action and the page's reloaded data are on their way: "Closing…". */
  busyLabel: ReactNode;
  /** The dialog's heading, a question: "Close campaign Autumn grading?" */
  title: string;
  /** What ends, with its counts, one sentence a line; and whether it can be undone. */
  consequences: readonly string[];
  /** The confirm button: names what it does ("Yes, close the campaign"). */
  confirmLabel: string;
  /** Fields posted with the intent (the key to revoke). */
  fields?: Record<string, string | number>;
  /** The page's last answer: a post without confirmation opens this dialog when the page comes back. */
  answer?: Pick<FormAnswer, "intent" | "result"> | null;
  danger?: boolean;
  disabled?: boolean;
  /** Extra class of the opening button. */
  className?: string;
  /** The opening button's accessible name when its label is short ("End" in a row of sessions). */
  ariaLabel?: string;
};

/** Whether the answer is the server's request to confirm this very action (same intent, same fields). */
function asksConfirmation(answer: Props["answer"], intent: string, fields: Props["fields"]) {
  if (answer?.intent !== intent || !answer.result?.error?.[CONFIRM_FIELD]) return false;
  const posted = answer.result.initialValue ?? {};
  return Object.entries(fields ?? {}).every(([name, value]) => String(posted[name]) === String(value));
}

/**
 * A destructive or final action behind a confirmation: the button opens a modal `<dialog>` (the
 * browser keeps focus inside it and Escape closes it) that says what ends, with real counts, and
 * posts the action with `confirmed=yes`. Without a script the button posts the form as is; the route
 * refuses it for want of confirmation and the page comes back with this dialog open in place.
 */
export function ConfirmAction(props: Props) {
  const { intent, label, title, consequences, confirmLabel, fields = {}, danger = true } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  const asked = asksConfirmation(props.answer, intent, fields);
  // Until the page's data says the action is done, the old button must not offer it again.
  const pending = usePendingIntent(intent, fields);
  useEffect(() => {
    // The server asked (no script when the form was posted): open it as a modal now that there is one.
    const d = dialog.current;
    if (asked && d && !d.open) d.showModal?.();
  }, [asked]);
  const hidden = Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  return (
    <>
      <Form method="post" className="confirm-opener">
        <CsrfInput />
        {hidden}
        <button
          ref={opener}
          type="submit"
          name="intent"
          value={intent}
          className={[danger ? "button-danger" : "", props.className ?? ""].join(" ").trim() || undefined}
          disabled={props.disabled || pending}
          aria-busy={pending || undefined}
          aria-haspopup="dialog"
          aria-label={props.ariaLabel}
          onClick={(event) => {
            if (!dialog.current?.showModal) return; // no dialog support: let the server ask
            event.preventDefault();
            dialog.current.showModal();
          }}
        >
          {pending ? props.busyLabel : label}
        </button>
      </Form>
      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        open={asked || undefined}
        onClose={() => opener.current?.focus()}
      >
        <h2 id={`${id}-title`}>{title}</h2>
        <div id={`${id}-body`}>
          {consequences.map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
        </div>
        <Form method="post" className="toolbar" onSubmit={() => dialog.current?.close()}>
          <CsrfInput />
          {hidden}
          <input type="hidden" name={CONFIRM_FIELD} value="yes" />
          <button type="submit" name="intent" value={intent} className={danger ? "button-danger" : undefined}>
            {confirmLabel}
          </button>
          <button
            type="submit"
            formMethod="dialog"
            className="button-secondary"
            autoFocus
            onClick={(event) => {
              event.preventDefault();
              dialog.current?.close();
            }}
          >
            Cancel
          </button>
        </Form>
      </dialog>
    </>
  );
}
