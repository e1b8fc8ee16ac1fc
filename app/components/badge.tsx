import type { ReactNode } from "react";

/**
 * What a badge says about its subject, which decides its colours (app.css: --badge-<tone>-fg/-bg, each
 * pair at least 4.5:1, WCAG AA for its small text): ok (done, running, open), risk (to do, needs
 * attention), failing (a failing guardrail, a deactivated account), neutral (a role, a kind, a state with
 * no judgement). The word inside always says it too: colour is never the only signal.
 */
export type BadgeTone = "ok" | "risk" | "failing" | "neutral";

/** A small rounded label beside a name or in a table cell: every badge and pill of the app is one. */
export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** The tone of a campaign's or an experiment's status: live ones are ok, the rest neutral. */
export function statusTone(status: string): BadgeTone {
  return status === "open" || status === "running" ? "ok" : "neutral";
}
