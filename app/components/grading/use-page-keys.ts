import { useEffect, useRef, type RefObject } from "react";

type PageKeys = {
  /** False on a finished task: its keys do nothing. */
  active: boolean;
  /** Every card graded in an open campaign. */
  finishable: boolean;
  /** No grade waits in the save queue. */
  saved: boolean;
  finish: () => Promise<unknown>;
  finishRef: RefObject<HTMLButtonElement>;
  togglePanel: () => void;
  closePanel: () => void;
  /** Focuses the next ungraded card after the card at `from` (-1: from the top), else Finish. */
  nextUngraded: (from: number) => void;
  /** The index of the card an element is in, or -1. */
  cardIndex: (el: Element | null) => number;
};

/**
 * The grading page's own keys, beside each card's (1–4, 0, arrows, j/k): `n` to the next ungraded card,
 * `Enter` or `f` to finish, `?` for the list of keys. Typing in a rationale never triggers them, nor
 * does Enter on a button or link (which presses it). Finish asked for while the last grades are still
 * being saved happens as soon as they are; asked for too early, it moves focus to Finish, whose
 * description says which cards are left.
 */
export function usePageKeys(keys: PageKeys) {
  const latest = useRef(keys);
  latest.current = keys;
  const pending = useRef(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const k = latest.current;
      const target = event.target as HTMLElement;
      if (!k.active || event.altKey || event.ctrlKey || event.metaKey) return;
      if (target.closest("textarea, input, select")) return;
      if (event.key === "?") {
        event.preventDefault();
        k.togglePanel();
      } else if (event.key === "Escape") {
        k.closePanel();
      } else if (event.key === "n") {
        event.preventDefault();
        k.nextUngraded(k.cardIndex(document.activeElement));
      } else if (event.key === "f" || (event.key === "Enter" && !target.closest("button, a, summary"))) {
        event.preventDefault();
        if (!k.finishable) return k.finishRef.current?.focus();
        if (k.saved) void k.finish();
        else pending.current = true;
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (pending.current && keys.saved && keys.finishable) {
      pending.current = false;
      void keys.finish();
    }
  }, [keys, keys.saved, keys.finishable]);
}
