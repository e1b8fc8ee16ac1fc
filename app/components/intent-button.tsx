import type { ReactNode } from "react";
import { usePendingIntent } from "~/forms/pending";

/**
 * A form's submit button for one intent that reads busy ("Reopening…") and is disabled from the post
 * until the page's reloaded data has arrived, so the old state never offers the action again.
 */
export function IntentButton({
  intent,
  busyLabel,
  children,
  className,
  disabled,
}: {
  intent: string;
  busyLabel: ReactNode;
  children: ReactNode;
  className?: string;
  disabled?: boolean;
}) {
  const pending = usePendingIntent(intent);
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={className}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
    >
      {pending ? busyLabel : children}
    </button>
  );
}
