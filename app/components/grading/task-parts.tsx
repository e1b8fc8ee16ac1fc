import { Link, useNavigate } from "@remix-run/react";
import { useCallback, useState, type RefObject } from "react";
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
        <kbd>k</kbd>/<kbd>j</kbd> move, <kbd>n</kbd> next ungraded, <kbd>Enter</kbd> finish, <kbd>?</kbd> all
        keys
      </span>
    </div>
  );
}

/** Finish, sent with `fetch` like the saves: a lost connection says so instead of replacing the page. */
export function useFinish(assignmentId: number) {
  const csrf = useCsrfToken();
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const finish = useCallback(async () => {
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
  }, [assignmentId, csrf, navigate]);
  return { finish, sending, error };
}

/** Why Finish cannot act yet: a sentence, and the cards still to grade (each a link that focuses it). */
export type FinishBlocker = { reason: string; cardsLeft: { id: number; alias: string }[] } | null;

const LINKED = 12;

/**
 * Finish stays focusable while it cannot act (aria-disabled, not disabled), so a keyboard or screen
 * reader user reaches it and hears why; the reason names the cards left and links to each.
 */
export function FinishButton({
  blocker,
  sending,
  error,
  finish,
  buttonRef,
  focusCard,
}: {
  blocker: FinishBlocker;
  sending: boolean;
  error: string | null;
  finish: () => void;
  buttonRef: RefObject<HTMLButtonElement>;
  focusCard: (id: number) => void;
}) {
  const blocked = blocker !== null || sending;
  const left = blocker?.cardsLeft ?? [];
  return (
    <div className="task-finish">
      <button
        ref={buttonRef}
        type="button"
        aria-disabled={blocked || undefined}
        aria-describedby="finish-why"
        aria-keyshortcuts="Enter f"
        onClick={() => (blocked ? undefined : finish())}
      >
        {sending ? "Finishing…" : "Finish"}
      </button>
      <span id="finish-why" className={error ? "field-error" : "muted"} role={error ? "alert" : undefined}>
        {error ?? blocker?.reason ?? "Everything is graded: press Enter or f to finish."}
        {!error && left.length ? (
          <>
            {" "}
            {left.slice(0, LINKED).map((c, i) => (
              <span key={c.id}>
                {i ? ", " : ""}
                <a
                  href={`#card-${c.id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    focusCard(c.id);
                  }}
                >
                  {c.alias}
                </a>
              </span>
            ))}
            {left.length > LINKED ? ` and ${left.length - LINKED} more` : ""}.
          </>
        ) : null}
      </span>
    </div>
  );
}

/** The keys of the grading page, shown by `?` (and its button), hidden again by `?` or Escape. */
export function ShortcutPanel({ open, close }: { open: boolean; close: () => void }) {
  if (!open) return null;
  const keys: [string, string][] = [
    ["1–4", "grade the focused card and move to the next"],
    ["0", "can't judge, and move on"],
    ["↓ / j, ↑ / k", "next or previous card (never changes a grade)"],
    ["n", "next card not graded yet"],
    ["Enter or f", "finish, once every card is graded and saved"],
    ["?", "show or hide these keys"],
  ];
  return (
    <section className="panel shortcut-panel" aria-labelledby="shortcut-title">
      <h2 id="shortcut-title">Keyboard shortcuts</h2>
      <dl>
        {keys.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button-secondary" onClick={close}>
        Hide shortcuts
      </button>
    </section>
  );
}
