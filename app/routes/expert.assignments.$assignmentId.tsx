import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CampaignError, finishAssignment, saveGrade, taskView } from "~/data/campaigns.server";
import { taskSchema, type TaskForm } from "../../scripts/inputs/campaigns";
import { answerErrors, parseForm } from "~/utils/forms";
import { answer, dispatchIntent } from "~/utils/forms.server";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { renderMarkdown } from "~/utils/markdown.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CSRF_FIELD, useCsrfToken } from "~/utils/csrf";
import { GradeCard, type Grade, type SaveState } from "~/components/grading/grade-card";
import { useSaveQueue } from "~/components/grading/use-save-queue";
import type { SaveRequest } from "~/utils/save-queue";

export const meta: MetaFunction = () => [{ title: "Grade candidates · Assay" }];

async function call<T>(work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CampaignError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  const view = await call(() => taskView(getDb(), user.id, parseId(params.assignmentId, "assignment")));
  const instructions = view.assignment.instructions ? renderMarkdown(view.assignment.instructions) : "";
  // The expert's own id keys the browser's save queue, so two experts on one browser never mix grades.
  return json(
    { ...view, expertId: user.id, assignment: { ...view.assignment, instructions } },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  const assignmentId = parseId(params.assignmentId, "assignment");
  const submission = parseForm(await request.formData(), taskSchema);
  return dispatchIntent(submission, {
    finish: async () => {
      await call(() => finishAssignment(getDb(), user.id, assignmentId));
      return redirect(`/expert?finished=${assignmentId}`);
    },
    // The answer echoes nothing back: the queue needs only to know the grade landed.
    grade: async ({ intent, ...grade }: Extract<TaskForm, { intent: "grade" }>) => {
      await call(() => saveGrade(getDb(), user.id, assignmentId, grade));
      return answer(submission, intent, { resetForm: true });
    },
  });
}

const FIRST_RENDERED = 30;
const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** Keyed by assignment, so moving to another task starts with a fresh queue, choices and focus. */
export default function Task() {
  const data = useLoaderData<typeof loader>();
  return <TaskPage key={data.assignment.id} {...data} />;
}

// Saves go through the queue's own `fetch`, which Remix does not see: they never reload the task.
function TaskPage({
  assignment,
  proposal,
  cards,
  expertId,
}: ReturnType<typeof useLoaderData<typeof loader>>) {
  const { queue, loaded, problems, inFlight, save } = useSaveQueue(expertId, assignment.id);
  // What the expert chose, newest first: this page's choices, then grades still queued from before a reload.
  const [chosen, setChosen] = useState(() => new Map<number, { grade: Grade; rationale: string }>());
  useEffect(() => {
    if (!loaded) return;
    setChosen(
      (m) =>
        new Map([...queue.map((q) => [q.item, { grade: q.grade, rationale: q.rationale }] as const), ...m]),
    );
    // Only the queue found on load is merged; later entries come from `onSave` below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);
  const gradeOf = useCallback(
    (c: (typeof cards)[number]) =>
      chosen.get(c.id)?.grade ?? (c.grade === null ? null : (String(c.grade) as Grade)),
    [chosen],
  );
  const onSave = useCallback(
    (request: SaveRequest) => {
      setChosen((m) => new Map(m).set(request.item, { grade: request.grade, rationale: request.rationale }));
      save(request);
    },
    [save],
  );
  const gradedCount = cards.filter((c) => gradeOf(c) !== null).length;
  const allGraded = gradedCount === cards.length;

  // The server renders the first cards only and the browser the rest right after hydration: a pool of
  // 150+ cards would otherwise make every page a 50 ms render on the server's single thread.
  const [shown, setShown] = useState(Math.min(cards.length, FIRST_RENDERED));
  useEffect(() => setShown(cards.length), [cards.length]);
  const refs = useRef<(HTMLElement | null)[]>([]);
  const focusCard = useCallback(
    (i: number) => refs.current[Math.max(0, Math.min(cards.length - 1, i))]?.focus(),
    [cards.length],
  );
  const focused = useRef(false);
  useEffect(() => {
    if (!loaded || shown < cards.length || focused.current) return;
    focused.current = true;
    const first = cards.findIndex((c) => gradeOf(c) === null);
    if (!assignment.finished || first >= 0) focusCard(Math.max(0, first));
  }, [loaded, shown, cards, gradeOf, focusCard, assignment.finished]);

  const queued = useMemo(() => new Set(queue.map((q) => q.item)), [queue]);
  const stateOf = (id: number, grade: Grade | null): SaveState => {
    const problem = problems.get(id);
    if (inFlight === id) return { text: "Saving…", problem: false };
    if (queued.has(id))
      return problem
        ? { text: `Not saved, retrying (${problem.reason})`, problem: true }
        : { text: "Saving…", problem: false };
    if (problem?.refused) return { text: `Not saved: ${problem.reason}`, problem: true };
    return { text: grade !== null ? "Saved" : "", problem: false };
  };
  const retrying =
    queue.length > 0 && queue.some((q) => problems.has(q.item) && !problems.get(q.item)!.refused);

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
      <div className="grade-cards">
        {cards.slice(0, shown).map((card, i) => {
          const grade = gradeOf(card);
          return (
            <GradeCard
              key={card.id}
              card={card}
              grade={grade}
              rationale={chosen.get(card.id)?.rationale ?? card.rationale}
              editable={assignment.editable}
              saveState={stateOf(card.id, grade)}
              cardRef={(el) => (refs.current[i] = el)}
              onSave={onSave}
              next={() => focusCard(i + 1)}
              previous={() => focusCard(i - 1)}
            />
          );
        })}
      </div>
      {assignment.finished ? (
        <p>
          <Link to="/expert" className="button">
            Back to my assignments
          </Link>
        </p>
      ) : (
        <FinishButton
          assignmentId={assignment.id}
          blocker={
            !assignment.editable
              ? "The campaign is closed."
              : !allGraded
                ? `Grade every card to finish (${cards.length - gradedCount} left).`
                : queue.length > 0
                  ? "Finish waits until every grade is saved."
                  : null
          }
        />
      )}
    </>
  );
}

/** Finish, sent with `fetch` like the saves: a lost connection says so here instead of replacing the page. */
function FinishButton({ assignmentId, blocker }: { assignmentId: number; blocker: string | null }) {
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

export const ErrorBoundary = RouteErrorBoundary;
