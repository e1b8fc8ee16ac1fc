import { useEffect, useRef } from "react";
import { useFetcher, useNavigate, type ShouldRevalidateFunction } from "@remix-run/react";
import { CsrfInput, useWithCsrf } from "~/security/csrf";
import { answerErrors, type FormAnswer } from "~/forms/forms";
import type { OfflineView } from "../../scripts/offline/view";

interface FreezeButtonProps {
  kind: "offline" | "expert" | "online" | "clicks";
  campaign?: number;
  experiment?: string;
  /** The resamples, seed and cutoffs the page on screen was computed with: the snapshot uses the same. */
  B?: number;
  seed: string;
  ks?: number[];
  /** Online: the kind of interval on screen, and N* for sequential ones. */
  intervals?: { kind: "fixed" | "sequential"; nStar?: number };
  /** The offline page's window, committee cap, stratification and conflict exclusion: the snapshot records them. */
  view?: OfflineView;
  /** The offline page's fairness targets as its URL carries them (`gender=f:0.4, …`): the snapshot records them. */
  targets?: string;
}

/** Where a Freeze button posts. */
const FREEZE_ACTION = "/analyst/snapshots";

/**
 * A dashboard's `shouldRevalidate`: a freeze does not reload the page's own result. After a fetcher's post
 * the router reloads the page's loaders before it hands the answer over, so the button would wait for the
 * dashboard to be computed again on the newest data (with experts grading or events arriving, a second
 * full computation) before going to the snapshot; a refusal leaves the page as it was, which needs no
 * reload either. Anything else (polling, Recompute, other forms) reloads as usual.
 */
export const keepDashboardAfterFreeze: ShouldRevalidateFunction = ({
  formAction,
  defaultShouldRevalidate,
}) => (formAction === FREEZE_ACTION ? false : defaultShouldRevalidate);

/**
 * "Freeze snapshot" on a dashboard: stores this result, with the parameters of the view on screen, as an
 * immutable snapshot. Posted by a fetcher, so a refusal (its data changed meanwhile, nothing to freeze)
 * leaves the analyst on this report, every setting kept, with the reason and a retry next to the button;
 * a success goes to the snapshot. A second click while the first is on its way is ignored (the server
 * also returns the existing snapshot for the same parameters and data, so a double-click never makes two).
 */
export function FreezeButton(props: FreezeButtonProps) {
  const fetcher = useFetcher<FormAnswer>();
  const navigate = useNavigate();
  const withCsrf = useWithCsrf();
  const busy = fetcher.state !== "idle";
  // A ref, not state: the second click of a double-click arrives before React re-renders the button disabled.
  const sent = useRef(false);
  const frozen = fetcher.state === "idle" ? fetcher.data?.done : null;
  useEffect(() => {
    if (fetcher.state === "idle") sent.current = false;
    if (frozen?.startsWith("/analyst/snapshots/")) navigate(frozen);
  }, [fetcher.state, frozen, navigate]);
  const errors = fetcher.state === "idle" ? answerErrors(fetcher.data) : [];
  return (
    <fetcher.Form
      method="post"
      action={FREEZE_ACTION}
      className="toolbar freeze-form"
      onSubmit={(event) => {
        // With a script, the answer names the snapshot and this page goes there (see the action); without
        // one, the form posts as it is and the action redirects.
        event.preventDefault();
        if (sent.current) return;
        sent.current = true;
        const fields = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
        fetcher.submit(withCsrf({ ...fields, respond: "href" }), {
          method: "post",
          action: FREEZE_ACTION,
        });
      }}
    >
      <CsrfInput />
      <FreezeFields {...props} />
      <button type="submit" className="button-secondary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? "Freezing…" : errors.length ? "Freeze again" : "Freeze snapshot"}
      </button>
      {errors.length ? (
        <p className="form-error" role="alert">
          Not frozen: {errors.join(" ")} This page and its settings are kept.
        </p>
      ) : null}
    </fetcher.Form>
  );
}

/** The parameters of the view on screen, as the snapshot form posts them. */
function FreezeFields({
  kind,
  campaign,
  experiment,
  B,
  seed,
  ks,
  intervals,
  view,
  targets,
}: FreezeButtonProps) {
  return (
    <>
      <input type="hidden" name="kind" value={kind} />
      {campaign ? <input type="hidden" name="campaign" value={campaign} /> : null}
      {experiment ? <input type="hidden" name="experiment" value={experiment} /> : null}
      {B !== undefined ? <input type="hidden" name="B" value={B} /> : null}
      <input type="hidden" name="seed" value={seed} />
      {ks ? <input type="hidden" name="ks" value={ks.join(",")} /> : null}
      {intervals ? <input type="hidden" name="intervals" value={intervals.kind} /> : null}
      {intervals?.nStar ? <input type="hidden" name="nStar" value={intervals.nStar} /> : null}
      {view?.excludeConflicts ? <input type="hidden" name="excludeConflicts" value="on" /> : null}
      {view?.stratify ? <input type="hidden" name="stratify" value={view.stratify} /> : null}
      {view?.from ? <input type="hidden" name="from" value={view.from} /> : null}
      {view?.to ? <input type="hidden" name="to" value={view.to} /> : null}
      {view?.maxCommittee ? <input type="hidden" name="maxCommittee" value={view.maxCommittee} /> : null}
      {targets ? <input type="hidden" name="target" value={targets} /> : null}
    </>
  );
}
