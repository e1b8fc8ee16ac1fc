import { Link, useNavigate } from "@remix-run/react";
import { useState } from "react";
import type { SaveQueue } from "~/forms/save-queue";
import { CSRF_FIELD, useCsrfToken } from "~/security/csrf";
import { answerErrors } from "~/forms/forms";

export const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** What the expert reads before grading: the proposal, the campaign's instructions, whether it is finished. */
export function TaskIntro({
  assignment,
  proposal,
  gradedCount,
}: {
  assignment: {
    campaign: string;
    deadline: string | null;
    instructions: string;
    finished: boolean;
    finishedAt: string | null;
    editable: boolean;
  };
  proposal: { title: string; subject: string | null; keywords: string[]; abstract: string };
  gradedCount: number;
}) {
  return (
    <>
      <p>
        <Link to="/expert">← My assignments</Link>
      </p>
      <h1>{proposal.title}</h1>
      <p className="muted">
        {assignment.campaign} · Subject: {proposal.subject ?? "none"}
        {assignment.deadline ? ` · Deadline: ${dateFormat.format(new Date(assignment.deadline))}` : ""}
      </p>
      <details className="task-instructions" open={gradedCount === 0 && !assignment.finished}>
        <summary>Campaign instructions</summary>
        {assignment.instructions ? (
          // Rendered on the server from markdown with raw HTML off (app/utils/markdown.server.ts).
          <div className="instructions" dangerouslySetInnerHTML={{ __html: assignment.instructions }} />
        ) : (
          <p>
            Grade every candidate for the proposal: 1 irrelevant, 2 far-fetched, 3 relevant, 4 highly
            relevant, or can't judge.
          </p>
        )}
      </details>
      <ul className="keywords" aria-label="Keywords">
        {proposal.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p className="task-abstract">{proposal.abstract}</p>
      {assignment.finished && assignment.finishedAt ? (
        <p className="notice success" role="note">
          Finished on {dateFormat.format(new Date(assignment.finishedAt))}.{" "}
          {assignment.editable
            ? "You can still change a grade until the campaign closes; it saves at once."
            : ""}
        </p>
      ) : null}
      {!assignment.editable ? (
        <p className="notice error">This campaign is closed: grades can no longer change.</p>
      ) : null}
    </>
  );
}

/** How far the grading is, which grades still wait to be saved, and the keys. */
export function TaskBar({
  gradedCount,
  cards,
  queue,
  retrying,
}: {
  gradedCount: number;
  cards: unknown[];
  queue: SaveQueue;
  retrying: boolean;
}) {
  return (
    <div className="task-bar">
      <span aria-live="polite">
        {gradedCount} of {cards.length} graded
      </span>
      <span
        className={queue.length > 0 ? "task-unsaved" : "sr-only"}
        role="status"
        aria-label="Unsaved grades"
      >
        {queue.length > 0
          ? `${queue.length} grade${queue.length === 1 ? "" : "s"} not saved yet${retrying ? ", retrying" : ""}. They are kept in this browser until they land.`
          : "Every grade is saved."}
      </span>
      <span className="muted task-keys">
        <kbd>1</kbd>–<kbd>4</kbd> grade and move on, <kbd>0</kbd> can't judge, <kbd>↑</kbd>/<kbd>↓</kbd> or{" "}
        <kbd>k</kbd>/<kbd>j</kbd> move
      </span>
    </div>
  );
}

/** Finish, sent with `fetch` like the saves: a lost connection says so here instead of replacing the page. */
export function FinishButton({ assignmentId, blocker }: { assignmentId: number; blocker: string | null }) {
  const csrf = useCsrfToken();
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const finish = async () => {
    setSending(true);
    setError(null);
    try {
      const body = new URLSearchParams({ intent: "finish", [CSRF_FIELD]: csrf });
      const response = await fetch(
        `${window.location.pathname}?_data=${encodeURIComponent("routes/expert.assignments.$assignmentId")}`,
        { method: "POST", body },
      );
      const to = response.headers.get("X-Remix-Redirect");
      if (to) return navigate(to.startsWith("/login") ? to : `/expert?finished=${assignmentId}`);
      const data = (await response.json().catch(() => null)) as { message?: string } | null;
      const sentence = data?.message ?? answerErrors(data as Parameters<typeof answerErrors>[0]).join(" ");
      setError(sentence || `The server answered ${response.status}; try again.`);
    } catch {
      setError("No connection: the assignment is not finished yet. Try again when you are back online.");
    }
    setSending(false);
  };
  return (
    <div className="task-finish">
      <button
        type="button"
        disabled={blocker !== null || sending}
        aria-describedby="finish-why"
        onClick={() => void finish()}
      >
        {sending ? "Finishing…" : "Finish"}
      </button>
      <span id="finish-why" className={error ? "field-error" : "muted"} role={error ? "alert" : undefined}>
        {error ?? blocker ?? ""}
      </span>
    </div>
  );
}
