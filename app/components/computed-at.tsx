import { Form, useActionData, useNavigation } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";
import { answerErrors, type FormAnswer } from "~/forms/forms";
import { formatCount, formatDateTime } from "~/utils/format";
import type { Progress } from "../../scripts/lib/progress";

/**
 * When a kept result was computed, and (for an analyst) Recompute: a post to the page itself, whose URL
 * holds the page's settings, that drops this one result and computes it anew. Without a script the form
 * posts as it is and the page comes back with the new result.
 */
export function ComputedAt({
  at,
  canRecompute,
  stale = false,
}: {
  at: string | null;
  canRecompute: boolean;
  /** The result shown is an older one kept on screen while a newer one is computed (see `Computing` with `why`). */
  stale?: boolean;
}) {
  const navigation = useNavigation();
  const answer = useActionData<FormAnswer>();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "recompute";
  const errors = answerErrors(answer);
  return (
    <Form method="post" className="toolbar computed-at" aria-label="Computed result">
      <p className="muted">
        {at ? (
          <>
            Computed at <time dateTime={at}>{formatDateTime(at)}</time>
            {stale ? ", on the data as it was then." : "; shown again while the data is unchanged."}
          </>
        ) : (
          "Computed just now."
        )}
      </p>
      {canRecompute ? (
        <>
          <CsrfInput />
          <button type="submit" name="intent" value="recompute" className="button-secondary" disabled={busy}>
            {busy ? "Recomputing…" : "Recompute"}
          </button>
        </>
      ) : null}
      {!busy && answer?.intent === "recompute" ? (
        <p className={errors.length ? "notice error" : "notice success"} role="status">
          {errors.length ? errors.join(" ") : answer.done}
        </p>
      ) : null}
    </Form>
  );
}

/** "(5 of 12 models fitted)": a running computation's progress in words, or nothing before its first report. */
const counted = (progress: Progress | null, unit: string) =>
  progress ? ` (${formatCount(progress.done)} of ${formatCount(progress.total)} ${unit})` : "";

/**
 * A computation still running, with how far it got as its task reports it ("Computing… 5 of 12 models
 * fitted"), as a `<progress>` bar and in words; before the task's first report, just "Computing…". With
 * `why`, a newer result is computed while the last one stays on screen below (stale while revalidate),
 * and the words say why ("New events or data since this fit: recomputing") and that the figures shown
 * are the last ones.
 */
export function Computing({
  what,
  progress,
  unit,
  why,
}: {
  what: string;
  progress: Progress | null;
  unit: string;
  why?: string;
}) {
  return (
    // A live region, not a status role: the page's own notice of a form answer stays the one status.
    <div className="notice computing" aria-live="polite">
      {why ? (
        <p>
          {why}
          {counted(progress, unit)}… The figures below are the last ones computed; this page shows the new{" "}
          {what} when they are ready.
        </p>
      ) : (
        <p>
          Computing {what}…{counted(progress, unit)} This page updates when they are ready.
        </p>
      )}
      <progress
        max={progress?.total}
        value={progress?.done}
        aria-label={`${why ? "Recomputing" : "Computing"} ${what}`}
      />
    </div>
  );
}
