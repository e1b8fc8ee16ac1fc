import { useEffect, useRef } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";
import type { OfflineView } from "../../scripts/offline/view";

interface FreezeButtonProps {
  kind: "offline" | "expert" | "online" | "clicks";
  campaign?: number;
  experiment?: string;
  /** The resamples, seed and cutoffs the page on screen was computed with: the snapshot uses the same (no B: no bootstrap). */
  B?: number;
  seed: string;
  ks?: number[];
  /** Online: the kind of interval on screen, and N* for sequential ones. */
  intervals?: { kind: "fixed" | "sequential"; nStar?: number };
  /** The offline page's window, stratification and conflict exclusion: the snapshot records them. */
  view?: OfflineView;
}

/**
 * "Freeze snapshot" on a dashboard: stores this result, with the parameters of the view on screen, as an
 * immutable snapshot. A second click while the first is on its way is ignored (the server also returns
 * the existing snapshot for the same parameters and data, so a double-click never makes two).
 */
export function FreezeButton({
  kind,
  campaign,
  experiment,
  B,
  seed,
  ks,
  intervals,
  view,
}: FreezeButtonProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/analyst/snapshots";
  // A ref, not state: the second click of a double-click arrives before React re-renders the button disabled.
  const sent = useRef(false);
  useEffect(() => {
    if (navigation.state === "idle") sent.current = false;
  }, [navigation.state]);
  return (
    <Form
      method="post"
      action="/analyst/snapshots"
      className="toolbar"
      onSubmit={(event) => {
        if (sent.current) event.preventDefault();
        sent.current = true;
      }}
    >
      <CsrfInput />
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
      <button type="submit" className="button-secondary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? "Freezing…" : "Freeze snapshot"}
      </button>
    </Form>
  );
}
