import { parentPort, workerData } from "node:worker_threads";
import type { AggregationMethod, GradedRating } from "../judgement/aggregate";
import { learningCurves, type LearningCurveOptions } from "../judgement/learning-curve";

/** Some points of the learning curves, on a thread of their own (learning-curves.ts shares them out). */
const { ratings, methods, truth, options } = workerData as {
  ratings: GradedRating[];
  methods: AggregationMethod[];
  truth: [string, number][] | null;
  options: LearningCurveOptions;
};

try {
  const curves = learningCurves(ratings, methods, truth && new Map(truth), options);
  parentPort!.postMessage({ ok: true, curves: [...curves] });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message });
}
