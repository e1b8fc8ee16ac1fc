import { memo, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { SaveRequest } from "~/forms/save-queue";

export const RATIONALE_MAX = 2000;

export const GRADES = [
  ["1", "1", "Irrelevant"],
  ["2", "2", "Far-fetched"],
  ["3", "3", "Relevant"],
  ["4", "4", "Highly relevant"],
  ["cant", "0", "Can't judge"],
] as const;

export type Grade = SaveRequest["grade"];

/** What a card shows: the blind candidate (alias, keywords, summary) and the expert's own grade. */
export type CardData = { id: number; alias: string; keywords: string[]; summary: string; position: number };

/** How the card's last save stands, in words for the card's status line. */
export type SaveState = { text: string; problem: boolean };

type Props = {
  card: CardData;
  grade: Grade | null;
  rationale: string;
  editable: boolean;
  saveState: SaveState;
  cardRef: (el: HTMLElement | null) => void;
  onSave: (request: SaveRequest) => void;
  next: () => void;
  previous: () => void;
};

const numberFormat = new Intl.NumberFormat("en-US");

/** The summary of a blind candidate, clamped, with "more" when the clamp really hides text. */
function CardAbout({ card, pressed }: { card: CardData; pressed: string | null }) {
  const [expanded, setExpanded] = useState(false);
  // "more" is offered when the clamped summary really hides text, which depends on the screen's width.
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const [overflows, setOverflows] = useState(card.summary.length > 160);
  useEffect(() => {
    const measure = () => {
      const el = summaryRef.current;
      if (el && el.classList.contains("is-clamped")) setOverflows(el.scrollHeight > el.clientHeight + 1);
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  return (
    <div className="grade-card-about">
      <h2>
        {card.alias}
        <span className="sr-only">{pressed ? `, graded ${pressed}` : ", not graded"}</span>
      </h2>
      <ul className="keywords" aria-label={`Expertise of ${card.alias}`}>
        {card.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p
        ref={summaryRef}
        className={`grade-card-summary${expanded ? "" : " is-clamped"}`}
        id={`summary-${card.id}`}
      >
        {card.summary}
      </p>
      {overflows || expanded ? (
        <button
          type="button"
          className="link-button grade-card-more"
          aria-expanded={expanded}
          aria-controls={`summary-${card.id}`}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? "less" : "more"}
        </button>
      ) : null}
    </div>
  );
}

/** The grades as toggle buttons (not radios, whose arrow keys would save each grade passed over). */
function GradeButtons({
  alias,
  grade,
  editable,
  choose,
}: {
  alias: string;
  grade: Grade | null;
  editable: boolean;
  choose: (grade: Grade) => void;
}) {
  return (
    <div role="group" aria-label={`Grade for ${alias}`} className="grade-buttons">
      {GRADES.map(([value, key, label]) => (
        <button
          key={value}
          type="button"
          aria-pressed={grade === value}
          disabled={!editable}
          onClick={() => choose(value)}
          title={`Key ${key}`}
        >
          <kbd aria-hidden="true">{key}</kbd> {label}
        </button>
      ))}
    </div>
  );
}

/** The rationale being typed: longer text than the limit is cut in the open (`cut` says from how long). */
function useRationale(savedRationale: string) {
  const [rationale, setRationale] = useState(savedRationale);
  const [cut, setCut] = useState<number | null>(null);
  // A reload restores a queued rationale after hydration: show it instead of the server's older one.
  useEffect(() => setRationale(savedRationale), [savedRationale]);
  const onRationale = (value: string) => {
    // Longer text (a paste, mostly) is cut to the limit in the open, never silently.
    if (value.length > RATIONALE_MAX) {
      setCut(value.length);
      setRationale(value.slice(0, RATIONALE_MAX));
    } else {
      setCut(null);
      setRationale(value);
    }
  };
  return { rationale, cut, onRationale };
}

/** The card's save state, the rationale's length against its limit, and a cut paste said aloud. */
function CardFoot({
  card,
  saveState,
  length,
  cut,
}: {
  card: CardData;
  saveState: SaveState;
  length: number;
  cut: number | null;
}) {
  return (
    <>
      <div className="grade-card-foot">
        <span
          className={saveState.problem ? "field-error" : "muted"}
          role="status"
          aria-label={`Save state of ${card.alias}`}
        >
          {saveState.text}
        </span>
        <span className="muted grade-card-count" id={`rationale-count-${card.id}`}>
          {numberFormat.format(length)} / {numberFormat.format(RATIONALE_MAX)}
        </span>
      </div>
      {cut !== null ? (
        <p className="field-error" role="alert">
          The text was {numberFormat.format(cut)} characters; only the first{" "}
          {numberFormat.format(RATIONALE_MAX)} are kept.
        </p>
      ) : null}
    </>
  );
}

/**
 * One candidate to grade. Keys are handled here, per card: 1–4 and 0 grade it and move on, arrows and
 * j/k move between cards and never change a grade (the grades are toggle buttons, not native radios,
 * whose arrow keys would select and save each grade passed over).
 */
export const GradeCard = memo(function GradeCard({
  card,
  grade,
  rationale: savedRationale,
  editable,
  saveState,
  cardRef,
  onSave,
  next,
  previous,
}: Props) {
  const { rationale, cut, onRationale } = useRationale(savedRationale);
  const focusedAt = useRef<number | null>(null);

  const spent = () => {
    const ms = focusedAt.current === null ? 0 : Math.round(performance.now() - focusedAt.current);
    focusedAt.current = performance.now();
    return ms;
  };
  const choose = (g: Grade) => {
    if (!editable) return;
    onSave({ item: card.id, grade: g, rationale, position: card.position, timeSpentMs: spent() });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    if (target.tagName === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    const chosen = GRADES.find(([, key]) => key === e.key);
    if (chosen) {
      e.preventDefault();
      if (!editable) return;
      choose(chosen[0]);
      next();
    } else if (e.key === "j" || e.key === "ArrowDown") {
      e.preventDefault();
      next();
    } else if (e.key === "k" || e.key === "ArrowUp") {
      e.preventDefault();
      previous();
    }
  };

  const pressed = GRADES.find(([value]) => value === grade);
  return (
    <section
      ref={cardRef}
      tabIndex={-1}
      aria-label={card.alias}
      data-card={card.id}
      id={`card-${card.id}`}
      className={`grade-card${grade !== null ? " is-graded" : ""}`}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (focusedAt.current === null) focusedAt.current = performance.now();
      }}
    >
      <CardAbout card={card} pressed={pressed?.[2] ?? null} />
      <div className="grade-card-controls">
        <GradeButtons alias={card.alias} grade={grade} editable={editable} choose={choose} />
        <label htmlFor={`rationale-${card.id}`} className="sr-only">
          Rationale for {card.alias} (optional)
        </label>
        <textarea
          id={`rationale-${card.id}`}
          rows={1}
          placeholder="Rationale (optional)"
          value={rationale}
          disabled={!editable}
          aria-describedby={`rationale-count-${card.id}`}
          onChange={(e) => onRationale(e.target.value)}
          onBlur={() =>
            grade !== null &&
            rationale !== savedRationale &&
            onSave({ item: card.id, grade, rationale, position: card.position, timeSpentMs: spent() })
          }
        />
        <CardFoot card={card} saveState={saveState} length={rationale.length} cut={cut} />
      </div>
    </section>
  );
});
