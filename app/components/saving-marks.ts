import { formatCount } from "~/utils/format";

type PlotModule = typeof import("@observablehq/plot");

/** A learning curve as the saving marks read it: its points and where it saves grades (null: nowhere). */
export interface SavingCurve {
  method: string;
  points: readonly { n: number; accuracy: number }[];
  /** Absent in results kept before the main curves had it. */
  saving?: { n: number; gradesSaved: number } | null;
}

/** Where a method's curve first reaches majority vote's all-grade accuracy, and the grades that leaves unused. */
export interface SavingMark {
  method: string;
  n: number;
  accuracy: number;
  gradesSaved: number;
  /** The label beside the ringed point; stacked downwards when several methods share a point. */
  label: string;
  labelY: number;
  /** Labels of points in the right half of the chart go to their left, so they stay inside it. */
  anchor: "start" | "end";
}

/**
 * The marks of "grades the campaign could have saved" on a learning-curve chart: per method whose mean
 * accuracy reaches majority vote's all-grade accuracy at some n below all grades, that point (to be
 * ringed and labelled with the grades saved).
 */
export function savingMarks(curves: readonly SavingCurve[], maxN: number): SavingMark[] {
  const shared = new Map<string, number>();
  return curves.flatMap((c) => {
    const saving = c.saving;
    if (!saving || saving.gradesSaved <= 0) return [];
    const point = c.points.find((p) => p.n === saving.n);
    if (!point) return [];
    const key = `${point.n}:${point.accuracy}`;
    const below = shared.get(key) ?? 0;
    shared.set(key, below + 1);
    return [
      {
        method: c.method,
        n: point.n,
        accuracy: point.accuracy,
        gradesSaved: saving.gradesSaved,
        label: `${c.method}: ${formatCount(saving.gradesSaved)} grades saved`,
        labelY: point.accuracy - 0.06 * below,
        anchor: point.n > (1 + maxN) / 2 ? ("end" as const) : ("start" as const),
      },
    ];
  });
}

/** The caption's sentence: each method's grades saved and where, or "none". */
export function savingSentence(curves: readonly SavingCurve[]): string {
  const saved = curves
    .filter((c) => c.saving)
    .map((c) => `${c.method} ${formatCount(c.saving!.gradesSaved)} (n = ${c.saving!.n})`)
    .join(", ");
  return saved || "none";
}

/** The narrowest chart (px) that labels its rings. */
export const LABELS_MIN_WIDTH = 600;

/**
 * The Plot marks of the saving: a dashed rule at the target when given (a chart that already draws
 * majority vote's all-grade line passes null), each point ringed in its method's colour, its label beside
 * it on a chart at least LABELS_MIN_WIDTH wide.
 */
export function savingPlotMarks(Plot: PlotModule, marks: SavingMark[], target: number | null, width: number) {
  return [
    ...(target === null ? [] : [Plot.ruleY([target], { stroke: "currentColor", strokeDasharray: "4 3" })]),
    Plot.dot(marks, { x: "n", y: "accuracy", r: 7, stroke: "method", strokeWidth: 2 }),
    // A phone's chart has no room for the labels beside the rings (they ran off its edge): the caption says the same.
    ...(["start", "end"] as const)
      .filter(() => width >= LABELS_MIN_WIDTH)
      .map((anchor) =>
        Plot.text(
          marks.filter((p) => p.anchor === anchor),
          {
            x: "n",
            y: "labelY",
            text: "label",
            textAnchor: anchor,
            dx: anchor === "start" ? 10 : -10,
            dy: 14,
            fill: "method",
          },
        ),
      ),
  ];
}
