import { formatCount, plural } from "~/utils/format";
import type { Report } from "./cells";

/**
 * How the report looked at the data: the evaluation window, the committee cap and the proposals it
 * dropped, the bootstrap (stratified or not) and whether conflicted candidates were removed. Reports frozen before these settings existed say nothing.
 */
/** The dropped proposals named on the line; the rest are counted (the CLI and JSON list them all). */
const SHOWN_DROPPED = 10;

export function OfflineViewLine({ report }: { report: Report }) {
  const p = report.parameters;
  if (!p.window) return null;
  const w = p.window;
  const window =
    w.from || w.to
      ? `proposals dated ${w.from ?? "any time"} to ${w.to ?? "any time"} (${formatCount(w.proposals)} in the window${w.undated ? `; ${formatCount(w.undated)} undated left out` : ""})`
      : "every proposal (no date window)";
  const cap = report.committeeCap;
  const learning = report.systems.some((s) => s.key === "popular" || s.key === "pagerank");
  return (
    <>
      <p className="muted" data-testid="offline-view">
        Evaluated: {window}; bootstrap{" "}
        {p.stratify === "subject"
          ? "stratified by subject (each subject's size kept in every resample)"
          : "over all proposals"}
        ;{" "}
        {p.excludeConflicts
          ? "lists without their conflicted candidates (ranks closed up), as a convener sees them"
          : "lists as the systems returned them"}
        {cap ? (
          <>
            ; committees of at most {plural(cap.max, "member")}: {plural(cap.dropped.length, "proposal")}{" "}
            dropped
            {cap.dropped.length
              ? ` (${cap.dropped
                  .slice(0, SHOWN_DROPPED)
                  .map((d) => `${d.proposal}: ${d.members}`)
                  .join(", ")}${cap.dropped.length > SHOWN_DROPPED ? ", …" : ""})`
              : ""}
          </>
        ) : null}
        .
      </p>
      {learning ? (
        <p className="muted">
          The popular and PageRank baselines learn, for a dated proposal, only from the committees of
          proposals dated before it (what its convener could have known); an undated proposal's lists learn
          from every committee but its own.
        </p>
      ) : null}
    </>
  );
}
