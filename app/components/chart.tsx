import { useEffect, useRef } from "react";

type PlotModule = typeof import("@observablehq/plot");

/**
 * A chart drawn by Observable Plot (statistical graphics: intervals, bands, histograms). Plot builds
 * SVG with the DOM, so the chart is drawn in the browser after hydration; the caption says in words
 * what it shows for screen readers and for print without scripts.
 */
export function Chart({ build, caption, deps }: { build: (Plot: PlotModule) => Parameters<PlotModule["plot"]>[0]; caption: string; deps: unknown[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    void import("@observablehq/plot").then((Plot) => {
      if (cancelled || !ref.current) return;
      const figure = Plot.plot({ style: { fontSize: "12px", background: "transparent" }, ...build(Plot) });
      ref.current.replaceChildren(figure);
    });
    return () => {
      cancelled = true;
    };
    // The caller names what the chart depends on; `build` is a fresh function each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return (
    <figure className="chart">
      <div ref={ref} role="img" aria-label={caption} />
      <figcaption className="muted">{caption}</figcaption>
    </figure>
  );
}
