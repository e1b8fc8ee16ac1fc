import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * The box a wide table scrolls sideways in, so the page itself never does (a phone is 390 px wide;
 * the dashboard tables are up to 1,400). When the table overflows, the box is a named region in the
 * tab order, so keyboard users can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
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
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={`table-scroll${className ? ` ${className}` : ""}`}
      {...(overflows ? { role: "region", "aria-label": `${label} (scrolls sideways)`, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
