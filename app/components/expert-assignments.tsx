import { Link } from "@remix-run/react";
import { TableScroll } from "~/components/table-scroll";
import { Badge, type BadgeTone } from "~/components/badge";

/** Where an expert is with an assignment. */
export type AssignmentState = "todo" | "progress" | "done";
const STATE_LABEL: Record<AssignmentState, string> = { todo: "to do", progress: "in progress", done: "done" };
const STATE_TONE: Record<AssignmentState, BadgeTone> = { todo: "risk", progress: "neutral", done: "ok" };

/** An assignment as the expert's list shows it. */
export interface AssignmentRow {
  id: number;
  proposal: string;
  campaign: string;
  state: AssignmentState;
  status: string;
  finishedAt: string | null;
  graded: number;
  total: number;
}

/** A campaign's deadline and instructions (HTML rendered on the server), folded under its name. */
export function CampaignInstructions({
  campaign,
}: {
  campaign: { campaign: string; deadline: string | null; instructions: string };
}) {
  const c = campaign;
  return (
    <details className="panel" aria-label={`Instructions for ${c.campaign}`}>
      <summary>
        <strong>{c.campaign}</strong>
        {c.deadline ? ` · Deadline: ${new Date(c.deadline).toISOString().slice(0, 10)}` : ""} · instructions
      </summary>
      {c.instructions ? (
        // Rendered on the server from markdown with raw HTML off (app/utils/markdown.server.ts).
        <div className="instructions" dangerouslySetInnerHTML={{ __html: c.instructions }} />
      ) : (
        <p>
          Grade every candidate for the proposal: 1 irrelevant, 2 far-fetched, 3 relevant, 4 highly relevant,
          or can't judge.
        </p>
      )}
    </details>
  );
}

/** Toggle buttons that show all assignments or those in one state, each with its count. */
export function AssignmentFilter({
  filter,
  counts,
  onFilter,
}: {
  filter: AssignmentState | "all";
  counts: Record<AssignmentState | "all", number>;
  onFilter: (filter: AssignmentState | "all") => void;
}) {
  return (
    <div className="assignment-filter" role="group" aria-label="Show assignments">
      {(["all", "todo", "progress", "done"] as const).map((s) => (
        <button key={s} type="button" aria-pressed={filter === s} onClick={() => onFilter(s)}>
          {s === "all" ? "All" : STATE_LABEL[s].replace(/^./, (c) => c.toUpperCase())} ({counts[s]})
        </button>
      ))}
    </div>
  );
}

/** The expert's assignments: state (and why a done one is done), proposal link, campaign, cards graded. */
export function AssignmentsTable({ rows }: { rows: AssignmentRow[] }) {
  return (
    <TableScroll label="Assignments">
      <table aria-label="Assignments">
        <thead>
          <tr>
            <th>Status</th>
            <th>Proposal</th>
            <th className="assignments-campaign">Campaign</th>
            <th className="num">Graded</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <Badge tone={STATE_TONE[a.state]}>{STATE_LABEL[a.state]}</Badge>
                {a.state === "progress" && a.graded === a.total ? (
                  <span className="muted"> · ready to finish</span>
                ) : null}
                {a.state === "done" && a.status === "closed" && !a.finishedAt ? (
                  <span className="muted"> · campaign closed</span>
                ) : null}
              </td>
              <td>
                <Link to={`/expert/assignments/${a.id}`}>{a.proposal}</Link>
              </td>
              <td className="assignments-campaign">{a.campaign}</td>
              <td className="num">
                {a.graded} / {a.total}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
