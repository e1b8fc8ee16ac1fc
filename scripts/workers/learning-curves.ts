import type { AggregationMethod, GradedRating } from "../judgement/aggregate";
import {
  learningCurves,
  mergeCurves,
  type LearningCurve,
  type LearningCurveOptions,
} from "../judgement/learning-curve";
import { runWorker } from "./run-worker";

/**
 * learningCurves with its points shared between `threads` threads (n = 1, 3, 5, … on one, 2, 4, … on
 * the other: the small n, whose Dawid–Skene fits take the most iterations, land on both). Each thread
 * draws every point's raters from the one seeded stream and computes its own points only, so the
 * curves are the same as on one thread. With coin ties (the coin draws from the stream too) or a
 * single thread, it runs here.
 */
export async function learningCurvesOnThreads(
  ratings: readonly GradedRating[],
  methods: readonly AggregationMethod[],
  truth: ReadonlyMap<string, number> | null,
  options: LearningCurveOptions & { threads?: number } = {},
): Promise<Map<AggregationMethod, LearningCurve>> {
  const { threads = 2, onProgress, ...curveOptions } = options;
  const perItem = new Map<string, number>();
  for (const r of ratings) perItem.set(r.item, (perItem.get(r.item) ?? 0) + 1);
  const r = Math.max(0, ...perItem.values());
  if (threads < 2 || options.coinTies || r < 3) return learningCurves(ratings, methods, truth, options);
  const shares = Array.from({ length: threads }, (_, t) =>
    Array.from({ length: r }, (_, i) => i + 1).filter((n) => (n - 1) % threads === t),
  );
  let done = 0;
  const parts = await Promise.all(
    shares.map(async (points) => {
      const answer = await runWorker<
        { ok: true; curves: [AggregationMethod, LearningCurve][] } | { ok: false; message: string }
      >(new URL("./learning-curve-worker.ts", import.meta.url), {
        ratings,
        methods,
        truth: truth && [...truth],
        options: { ...curveOptions, points },
      });
      if (!answer.ok) throw new Error(answer.message);
      done += points.length;
      onProgress?.(done, r);
      return new Map(answer.curves);
    }),
  );
  return mergeCurves(parts);
}
