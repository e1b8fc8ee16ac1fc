import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CampaignError, finishAssignment, saveGrade, taskView } from "~/data/campaigns.server";
import { taskSchema, type TaskForm } from "../../scripts/inputs/campaigns";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent } from "~/forms/forms.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { renderMarkdown } from "~/utils/markdown.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import {
  FinishButton,
  ShortcutPanel,
  TaskBar,
  TaskIntro,
  useFinish,
  type FinishBlocker,
} from "~/components/grading/task-parts";
import { usePageKeys } from "~/components/grading/use-page-keys";
import { GradeCard, type Grade, type SaveState } from "~/components/grading/grade-card";
import { useSaveQueue, type SaveProblems } from "~/components/grading/use-save-queue";
import type { SaveQueue, SaveRequest } from "~/forms/save-queue";

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

/** Keyed by assignment, so moving to another task starts with a fresh queue, choices and focus. */
/**
 * What the expert chose, newest first: this page's choices, then grades still queued from before a
 * reload; `onSave` records a choice and queues its save.
 */
function useChosenGrades(queue: SaveQueue, loaded: boolean, save: (request: SaveRequest) => void) {
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
    (c: { id: number; grade: string | number | null }) =>
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
  return { chosen, gradeOf, onSave };
}

/** Each card's save state in words: saving, saved, retrying with why, or refused with the server's sentence. */
function useSaveStates(queue: SaveQueue, problems: SaveProblems, inFlight: number | null) {
  const queued = useMemo(() => new Set(queue.map((q) => q.item)), [queue]);
  return (id: number, grade: Grade | null): SaveState => {
    const problem = problems.get(id);
    if (inFlight === id) return { text: "Saving…", problem: false };
    if (queued.has(id))
      return problem
        ? { text: `Not saved, retrying (${problem.reason})`, problem: true }
        : { text: "Saving…", problem: false };
    if (problem?.refused) return { text: `Not saved: ${problem.reason}`, problem: true };
    return { text: grade !== null ? "Saved" : "", problem: false };
  };
}

/**
 * Finishing a task: why Finish cannot act yet (naming the cards left), the finish request, and the
 * page's keys (`n`, Enter or `f`, `?`) with the shortcut panel they open.
 */
function useFinishing({
  assignment,
  cards,
  gradeOf,
  queue,
  focusCard,
}: {
  assignment: { id: number; editable: boolean; finished: boolean };
  cards: { id: number; alias: string; grade: string | number | null }[];
  gradeOf: (c: { id: number; grade: string | number | null }) => Grade | null;
  queue: SaveQueue;
  focusCard: (i: number) => void;
}) {
  const gradedCount = cards.filter((c) => gradeOf(c) !== null).length;
  const allGraded = gradedCount === cards.length;
  const focusCardById = useCallback(
    (id: number) => focusCard(cards.findIndex((c) => c.id === id)),
    [cards, focusCard],
  );
  const blocker: FinishBlocker = !assignment.editable
    ? { reason: "The campaign is closed.", cardsLeft: [] }
    : !allGraded
      ? {
          reason: `Grade every card to finish (${cards.length - gradedCount} left):`,
          cardsLeft: cards.filter((c) => gradeOf(c) === null).map((c) => ({ id: c.id, alias: c.alias })),
        }
      : queue.length > 0
        ? { reason: "Finish waits until every grade is saved.", cardsLeft: [] }
        : null;
  const finishing = useFinish(assignment.id);
  const finishRef = useRef<HTMLButtonElement>(null);
  const [panel, setPanel] = useState(false);
  usePageKeys({
    active: !assignment.finished,
    finishable: assignment.editable && allGraded,
    saved: queue.length === 0,
    finish: finishing.finish,
    finishRef,
    togglePanel: () => setPanel((open) => !open),
    closePanel: () => setPanel(false),
    nextUngraded: (from: number) => {
      const order = [...cards.slice(from + 1), ...cards.slice(0, from + 1)];
      const card = order.find((c) => gradeOf(c) === null);
      if (card) focusCardById(card.id);
      else finishRef.current?.focus();
    },
    cardIndex: (el: Element | null) => {
      const id = Number(el?.closest("[data-card]")?.getAttribute("data-card"));
      return cards.findIndex((c) => c.id === id);
    },
  });

  return { blocker, finishing, finishRef, panel, setPanel, focusCardById };
}

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
  const { chosen, gradeOf, onSave } = useChosenGrades(queue, loaded, save);
  const gradedCount = cards.filter((c) => gradeOf(c) !== null).length;

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

  const { blocker, finishing, finishRef, panel, setPanel, focusCardById } = useFinishing({
    assignment,
    cards,
    gradeOf,
    queue,
    focusCard,
  });
  const stateOf = useSaveStates(queue, problems, inFlight);
  const retrying =
    queue.length > 0 && queue.some((q) => problems.has(q.item) && !problems.get(q.item)!.refused);

  return (
    <>
      <TaskIntro assignment={assignment} proposal={proposal} gradedCount={gradedCount} />
      <TaskBar gradedCount={gradedCount} cards={cards} queue={queue} retrying={retrying} />
      <ShortcutPanel open={panel} close={() => setPanel(false)} />
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
          blocker={blocker}
          sending={finishing.sending}
          error={finishing.error}
          finish={() => void finishing.finish()}
          buttonRef={finishRef}
          focusCard={focusCardById}
        />
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
