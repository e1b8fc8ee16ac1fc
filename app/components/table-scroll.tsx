import { useEffect, useRef, useState, type ReactNode } from "react";

/** Which edges of a scrolling box hide columns: where the scroll cue (a shadow) shows. */
export interface ScrollCue {
  overflows: boolean;
  /** Columns hidden to the left (scrolled away from the start). */
  left: boolean;
  /** Columns hidden to the right (more to come). */
  right: boolean;
}

/** The cue of a box from its scroll geometry (a pixel of slack, for zoomed screens' fractional widths). */
export function scrollCue(box: { scrollLeft: number; scrollWidth: number; clientWidth: number }): ScrollCue {
  const hidden = box.scrollWidth - box.clientWidth;
  if (hidden <= 1) return { overflows: false, left: false, right: false };
  return { overflows: true, left: box.scrollLeft > 1, right: box.scrollLeft < hidden - 1 };
}

const NONE: ScrollCue = { overflows: false, left: false, right: false };
const same = (a: ScrollCue, b: ScrollCue) =>
  a.overflows === b.overflows && a.left === b.left && a.right === b.right;

/**
 * The box a wide table scrolls sideways in, so the page itself never does (a phone is 390 px wide;
 * the dashboard tables are up to 1,400). When the table overflows, the box is a named region in the
 * tab order, so keyboard users can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable); its
 * first column stays put (what names each row), and a shadow at each edge that hides columns says there
 * is more that way (app.css, `.table-frame`).
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [cue, setCue] = useState<ScrollCue>(NONE);
  const [firstColumn, setFirstColumn] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const next = scrollCue(el);
      setCue((now) => (same(now, next) ? now : next));
      // The left shadow starts where the sticky first column ends.
      const first = el.querySelector("tr > :first-child");
      setFirstColumn(first instanceof HTMLElement ? first.offsetWidth : 0);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, []);
  return (
    <div
      className="table-frame"
      data-overflows={cue.overflows || undefined}
      data-more-left={cue.left || undefined}
      data-more-right={cue.right || undefined}
      style={cue.overflows ? ({ "--first-column": `${firstColumn}px` } as React.CSSProperties) : undefined}
    >
      <div
        ref={ref}
        className={`table-scroll${className ? ` ${className}` : ""}`}
        {...(cue.overflows
          ? { role: "region", "aria-label": `${label} (scrolls sideways)`, tabIndex: 0 }
          : {})}
      >
        {children}
      </div>
    </div>
  );
}
