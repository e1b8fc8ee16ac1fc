import { Form } from "@remix-run/react";
import { CsrfInput } from "~/utils/csrf";

/** "Freeze snapshot" on a dashboard: stores this result, with these parameters, as an immutable snapshot. */
export function FreezeButton({ kind, campaign, experiment, B = 1000, seed = "assay" }: { kind: "offline" | "expert" | "online"; campaign?: number; experiment?: string; B?: number; seed?: string }) {
  return (
    <Form method="post" action="/analyst/snapshots" className="toolbar">
      <CsrfInput />
      <input type="hidden" name="kind" value={kind} />
      {campaign ? <input type="hidden" name="campaign" value={campaign} /> : null}
      {experiment ? <input type="hidden" name="experiment" value={experiment} /> : null}
      <input type="hidden" name="B" value={B} />
      <input type="hidden" name="seed" value={seed} />
      <button type="submit" className="button-secondary">
        Freeze snapshot
      </button>
    </Form>
  );
}
