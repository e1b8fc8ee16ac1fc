import { learningCurves } from "../judgement/learning-curve";
import { panel } from "../../test/rating-panel";
import { learningCurvesOnThreads } from "./learning-curves";

describe("learning curves on two threads", () => {
  it("are the curves of one thread, figure for figure", async () => {
    const { ratings, truth } = panel();
    const methods = ["median", "majority", "mean", "dawid-skene"] as const;
    const options = { draws: 30, seed: "threads" };
    const progress: number[] = [];
    const threaded = await learningCurvesOnThreads(ratings, methods, truth, {
      ...options,
      onProgress: (done) => progress.push(done),
    });
    expect(threaded).toEqual(learningCurves(ratings, methods, truth, options));
    // A progress call per thread, the last at all five points (whichever thread ends first).
    expect(progress).toHaveLength(2);
    expect(progress[1]).toBe(5);
  });
});
