import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { CampaignError, finishAssignment, saveGrade, taskView } from "../../db/campaigns";
import { gradeSchema } from "~/schemas/campaigns";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, useWithCsrf } from "~/utils/csrf";

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
  return json(await call(() => taskView(getDb(), user.id, parseId(params.assignmentId, "assignment"))), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  const form = Object.fromEntries(await request.formData());
  const assignmentId = parseId(params.assignmentId, "assignment");
  if (form.intent === "finish") {
    await call(() => finishAssignment(getDb(), user.id, assignmentId));
    return redirect("/expert");
  }
  const parsed = gradeSchema.safeParse(form);
  if (!parsed.success) return json({ ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") }, { status: 400 });
  await call(() => saveGrade(getDb(), user.id, assignmentId, parsed.data));
  return json({ ok: true, error: null });
}

/** An autosave needs no reload of the task: the card already shows its state. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => (formData?.has("item") ? false : defaultShouldRevalidate);

const FIRST_RENDERED = 30;

const grades = [
  ["1", "1 — Irrelevant"],
  ["2", "2 — Far-fetched"],
  ["3", "3 — Relevant"],
  ["4", "4 — Highly relevant"],
  ["cant", "Can't judge"],
] as const;

type Card = ReturnType<typeof useLoaderData<typeof loader>>["cards"][number];

export default function Task() {
  const { assignment, proposal, cards } = useLoaderData<typeof loader>();
  const [graded, setGraded] = useState(() => new Map(cards.map((c) => [c.id, c.grade])));
  const refs = useRef<(HTMLElement | null)[]>([]);
  const focusCard = (i: number) => refs.current[Math.max(0, Math.min(cards.length - 1, i))]?.focus();
  const allGraded = cards.every((c) => graded.get(c.id) != null);
  // The server renders the first cards only and the browser the rest right after hydration: a pool of
  // 150+ cards would otherwise make every page a 50 ms render on the server's single thread.
  const [shown, setShown] = useState(Math.min(cards.length, FIRST_RENDERED));
  useEffect(() => setShown(cards.length), [cards.length]);
  const onGraded = useCallback((id: number, grade: string) => setGraded((m) => new Map(m).set(id, grade)), []);
  return (
    <>
      <p>
        <Link to="/expert">← My assignments</Link>
      </p>
      <h1>{proposal.title}</h1>
      <p className="muted">
        {assignment.campaign} · Subject: {proposal.subject ?? "none"}
      </p>
      <ul className="keywords" aria-label="Keywords">
        {proposal.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p>{proposal.abstract}</p>
      <p className="notice">
        Keys: <kbd>1</kbd>–<kbd>4</kbd> grade the focused card and move on, <kbd>0</kbd> can't judge, <kbd>j</kbd>/<kbd>k</kbd> or arrows move, <kbd>Tab</kbd> reaches the rationale. Every change saves
        at once.
      </p>
      {!assignment.editable ? <p className="notice error">This campaign is closed: grades can no longer change.</p> : null}
      <p aria-live="polite">
        {[...graded.values()].filter((g) => g != null).length} of {cards.length} graded
      </p>
      {cards.slice(0, shown).map((card, i) => (
        <GradeCard
          key={card.id}
          card={card}
          editable={assignment.editable}
          cardRef={(el) => (refs.current[i] = el)}
          onGraded={onGraded}
          next={() => focusCard(i + 1)}
          previous={() => focusCard(i - 1)}
        />
      ))}
      <Form method="post">
        <CsrfInput />
        <button type="submit" name="intent" value="finish" disabled={!allGraded || !assignment.editable}>
          Finish
        </button>
        {!allGraded ? <span className="muted"> Grade every card to finish.</span> : null}
      </Form>
    </>
  );
}

function GradeCard({ card, editable, cardRef, onGraded, next, previous }: { card: Card; editable: boolean; cardRef: (el: HTMLElement | null) => void; onGraded: (id: number, grade: string) => void; next: () => void; previous: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const withCsrf = useWithCsrf();
  const [grade, setGrade] = useState<string | null>(card.grade === null ? null : String(card.grade));
  const [rationale, setRationale] = useState(card.rationale);
  const [failed, setFailed] = useState(false);
  const focusedAt = useRef<number | null>(null);
  const pending = useRef<Record<string, string> | null>(null);

  const save = useCallback(
    (g: string, r: string) => {
      const spent = focusedAt.current === null ? 0 : Math.round(performance.now() - focusedAt.current);
      focusedAt.current = performance.now();
      const payload = { item: String(card.id), grade: g, rationale: r, position: String(card.position), timeSpentMs: String(spent) };
      pending.current = payload;
      fetcher.submit(withCsrf(payload), { method: "post" });
    },
    [card.id, card.position, fetcher, withCsrf],
  );

  // A save that got no answer (a lost connection) is retried until it lands; a refusal is shown.
  useEffect(() => {
    if (fetcher.state !== "idle" || !pending.current) return;
    if (fetcher.data) {
      pending.current = null;
      setFailed(!fetcher.data.ok);
      return;
    }
    setFailed(true);
    const retry = setTimeout(() => pending.current && fetcher.submit(withCsrf(pending.current), { method: "post" }), 2000);
    return () => clearTimeout(retry);
  }, [fetcher.state, fetcher.data, fetcher, withCsrf]);

  const choose = (g: string) => {
    if (!editable) return;
    setGrade(g);
    onGraded(card.id, g);
    save(g, rationale);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).tagName === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key;
    if (/^[1-4]$/.test(key) || key === "0") {
      e.preventDefault();
      choose(key === "0" ? "cant" : key);
      if (key !== "0") next();
    } else if (key === "j" || (key === "ArrowDown" && e.target === e.currentTarget)) {
      e.preventDefault();
      next();
    } else if (key === "k" || (key === "ArrowUp" && e.target === e.currentTarget)) {
      e.preventDefault();
      previous();
    }
  };
  const refused = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const status = fetcher.state !== "idle" ? "Saving…" : refused ? `Not saved: ${refused}` : failed ? "Not saved yet: retrying" : grade !== null ? "Saved" : "";
  return (
    <section
      ref={cardRef}
      tabIndex={0}
      aria-label={card.alias}
      className="panel card-to-grade"
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (focusedAt.current === null) focusedAt.current = performance.now();
      }}
    >
      <h2 style={{ marginTop: 0 }}>{card.alias}</h2>
      <ul className="keywords" aria-label={`Expertise of ${card.alias}`}>
        {card.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p>{card.summary}</p>
      <fieldset role="radiogroup" aria-label={card.alias} disabled={!editable}>
        <legend className="sr-only">{card.alias}</legend>
        {grades.map(([value, label]) => (
          <label key={value} style={{ display: "inline-block", fontWeight: 400, marginRight: "1rem" }}>
            <input type="radio" name={`grade-${card.id}`} value={value} checked={grade === value} onChange={() => choose(value)} /> {label}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`rationale-${card.id}`} style={{ fontWeight: 400 }}>
        Rationale (optional)
      </label>
      <textarea
        id={`rationale-${card.id}`}
        rows={2}
        style={{ width: "100%" }}
        value={rationale}
        disabled={!editable}
        maxLength={2000}
        onChange={(e) => setRationale(e.target.value)}
        onBlur={() => grade !== null && rationale !== card.rationale && save(grade, rationale)}
      />
      <p className={failed ? "field-error" : "muted"} role="status" aria-label={`Save state of ${card.alias}`}>
        {status}
      </p>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
