import { learningCurves } from "../judgement/learning-curve";
import { panel } from "../../test/rating-panel";
import { learningCurvesOnThreads, shareOut } from "./learning-curves";

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

  it("shares every point out once, the costly two-grade point apart from three, and all to one thread if one", () => {
    const shares = shareOut(12, 2);
    expect(shares.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(shares.find((s) => s.includes(2))).not.toContain(3);
    expect(shareOut(4, 1)).toEqual([[1, 2, 3, 4]]);
  });
});
