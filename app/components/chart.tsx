import { useEffect, useId, useRef, useState } from "react";
import { idClass } from "~/utils/id-like";
import type { Series } from "~/utils/chart-series";
import { formatNumber } from "~/utils/format";
import { TableScroll } from "./table-scroll";

type PlotModule = typeof import("@observablehq/plot");
type PlotOptions = NonNullable<Parameters<PlotModule["plot"]>[0]>;

/** One column of a chart's data table: the row key, its header, and how a value reads. */
export interface ChartColumn {
  key: string;
  label: string;
  format?: (value: unknown) => string;
}

/** The figures a chart draws, as rows: shown as a table behind the chart's "Data" toggle. */
export interface ChartTable {
  columns: ChartColumn[];
  rows: readonly object[];
}

export interface ChartProps {
  /**
   * The Plot options. `size.width` is the width the chart is drawn at (the width of its box on
   * screen), for charts that adapt their layout; a `width` in the options is the widest it may draw.
   */
  build: (Plot: PlotModule, size: { width: number }) => PlotOptions;
  /** What the chart shows, in words: shown under it and the image's accessible name. */
  caption: string;
  /** What the chart depends on (it is redrawn when one changes). */
  deps: unknown[];
  /** The visible title, also the figure's accessible name; defaults to the `title` the options give. */
  title?: string;
  /** The data table behind the toggle; without one, the rows of the marks' data are listed. */
  table?: ChartTable;
  /** The narrowest the chart is drawn (px): in a narrower box it scrolls sideways inside the box. */
  minWidth?: number;
  /**
   * The plotted series (app/utils/chart-series): the legend drawn above the chart, each line with its
   * colour and dash. The options should take their colour scale from the same list (`seriesScale`).
   */
  legend?: readonly Series[];
}

/** What is drawn before the box has been measured (and on the server). */
const FALLBACK_WIDTH = 640;

/**
 * A chart drawn by Observable Plot (statistical graphics: intervals, bands, histograms), at the
 * width of the box it is shown in, so its 12 px text stays 12 px (an SVG drawn at 640 and scaled
 * to a 360 px column read at 7 px). Plot builds SVG with the DOM, so the chart is drawn in the
 * browser after hydration; the title, the caption and the data table are HTML, there without scripts.
 * Screen readers get a figure named by the title holding one image named by the caption (the name
 * tests and other pages find charts by), then the table.
 */
export function Chart({ build, caption, deps, title, table, minWidth = 280, legend }: ChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [drawn, setDrawn] = useState<{ title: string | null; table: ChartTable | null }>({
    title: null,
    table: null,
  });
  const titleId = useId();

  // The box's width, again whenever it changes (window resized, a column collapses on a phone).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (width === null) return;
    let cancelled = false;
    void import("@observablehq/plot").then((Plot) => {
      if (cancelled || !ref.current) return;
      const drawWidth = Math.max(minWidth, width || FALLBACK_WIDTH);
      const options = build(Plot, { width: drawWidth });
      const { title: optionTitle, width: widest, ...rest } = options;
      // Plot's default left margin fits 10 px tick labels; "100%" at 12 px needs more.
      const figure = Plot.plot({
        style: { fontSize: "12px", background: "transparent" },
        marginLeft: 50,
        ...rest,
        width: Math.min(drawWidth, widest ?? Infinity),
      });
      // The box is the one image with a name; Plot's inner aria-labels (on <g>, not allowed there) stay out of it.
      figure.setAttribute("aria-hidden", "true");
      ref.current.replaceChildren(figure);
      setDrawn({
        title: typeof optionTitle === "string" ? optionTitle : null,
        table: table ? null : tableOfMarks(options),
      });
    });
    return () => {
      cancelled = true;
    };
    // The caller names what the chart depends on; `build` and `table` are fresh each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, width, minWidth]);

  const name = title ?? drawn.title ?? caption;
  const data = table ?? drawn.table;
  // Drawn wider than its box (a phone): the box scrolls, so it must be reachable by keyboard.
  const scrolls = width !== null && width > 0 && width < minWidth;
  return (
    <figure className="chart" aria-labelledby={(title ?? drawn.title) ? titleId : undefined}>
      {(title ?? drawn.title) ? (
        <div className="chart-title" id={titleId}>
          {name}
        </div>
      ) : null}
      {legend?.length ? <SeriesLegend series={legend} /> : null}
      <div
        className="chart-box"
        ref={box}
        {...(scrolls ? { role: "region", "aria-label": `${name} (scrolls sideways)`, tabIndex: 0 } : {})}
      >
        <div ref={ref} className="chart-canvas" role="img" aria-label={caption} />
      </div>
      <figcaption className="muted">{caption}</figcaption>
      {data ? (
        <details className="chart-data">
          <summary>Data table{(title ?? drawn.title) ? `: ${name}` : ""}</summary>
          <DataTable table={data} name={name} />
        </details>
      ) : null}
    </figure>
  );
}

/** How opaque an interval band is, in the chart and in its legend swatch. */
export const BAND_OPACITY = 0.15;

/** The legend, one entry per plotted series: a short line in its colour and dash (or a band's swatch), then its label. */
export function SeriesLegend({ series }: { series: readonly Series[] }) {
  return (
    <ul className="chart-legend" aria-label="Legend">
      {series.map((s) => (
        <li key={s.key}>
          <svg width="24" height="10" aria-hidden="true">
            {s.band ? (
              <rect x="1" y="1" width="22" height="8" fill={s.color} fillOpacity={BAND_OPACITY} />
            ) : (
              <line
                x1="1"
                y1="5"
                x2="23"
                y2="5"
                stroke={s.color}
                strokeWidth="2.5"
                strokeDasharray={s.dash ?? undefined}
              />
            )}
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function DataTable({ table, name }: { table: ChartTable; name: string }) {
  const rows = table.rows as readonly Record<string, unknown>[];
  // A column of numbers aligns right as a whole, its missing values' "—" too.
  const numeric = new Set(
    table.columns.filter((c) => rows.some((r) => typeof r[c.key] === "number")).map((c) => c.key),
  );
  return (
    <TableScroll label={`Data of ${name}`}>
      <table aria-label={`Data of ${name}`}>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c.key} scope="col" className={numeric.has(c.key) ? "num" : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {table.columns.map((c) => (
                <td key={c.key} className={numeric.has(c.key) ? "num" : idClass(row[c.key])}>
                  {(c.format ?? showValue)(row[c.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A value in a table cell: numbers to three significant digits, dates as days, nothing as a dash. */
function showValue(v: unknown): string {
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) return "—";
  if (typeof v === "number") return formatNumber(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

/**
 * The rows the marks draw, for a chart declared without a table: the longest data array of objects
 * among the marks (a line and its band usually share it), its columns the keys holding plain values.
 */
function tableOfMarks(options: PlotOptions): ChartTable | null {
  const seen = new Set<unknown>();
  let best: Record<string, unknown>[] | null = null;
  const marks: unknown[] = [];
  const collect = (m: unknown): void => void (Array.isArray(m) ? m.forEach(collect) : marks.push(m));
  collect(options.marks ?? []);
  for (const mark of marks as { data?: unknown }[]) {
    const data = mark && typeof mark === "object" ? mark.data : undefined;
    if (!Array.isArray(data) || seen.has(data)) continue;
    seen.add(data);
    if (
      data.length &&
      typeof data[0] === "object" &&
      data[0] !== null &&
      (!best || data.length > best.length)
    )
      best = data as Record<string, unknown>[];
  }
  if (!best) return null;
  const keys = Object.keys(best[0]).filter((k) =>
    best!.some((r) => ["number", "string"].includes(typeof r[k]) || r[k] instanceof Date),
  );
  return { columns: keys.map((k) => ({ key: k, label: k })), rows: best };
}
