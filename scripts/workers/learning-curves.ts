import type { AggregationMethod, GradedRating } from "../judgement/aggregate";
import {
  learningCurves,
  mergeCurves,
  type LearningCurve,
  type LearningCurveOptions,
} from "../judgement/learning-curve";
import { runWorker } from "./run-worker";

/**
 * learningCurves with its points shared between `threads` threads (shareOut). Each thread
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
  const shares = shareOut(r, threads);
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

/**
 * Points 1..r shared out so that the threads end together: the costliest first, each to the thread
 * with the least so far. A point's cost, per draw, is a guess fitted to the agreement bench (CPU time
 * per point, 12 raters): a fixed part worth about 14 of Dawid–Skene's EM iterations (the draw, the
 * other methods, EM's set-up), plus the iterations, about 400 / n² at n grades per item (two grades
 * rarely converge before the cap of 100; the bench takes 100, 44, 17, 10 … 4). At two grades an
 * iteration costs about 0.6 of one at three (items that share their grades are computed once); at one
 * grade, next to nothing (48 such groups). n = r costs nothing (every draw keeps all grades).
 */
export function shareOut(r: number, threads: number): number[][] {
  const iterations = (n: number) => (n === 1 ? 0 : n === 2 ? 60 : Math.min(100, 400 / (n * n)));
  const cost = (n: number) => (n === r ? 0 : 14 + iterations(n));
  const shares: number[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  const byCost = Array.from({ length: r }, (_, i) => i + 1).sort((a, b) => cost(b) - cost(a));
  for (const n of byCost) {
    const t = load.indexOf(Math.min(...load));
    shares[t].push(n);
    load[t] += cost(n);
  }
  return shares.filter((s) => s.length > 0).map((s) => s.sort((a, b) => a - b));
}
