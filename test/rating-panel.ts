import { createRng } from "../scripts/lib/random";

/** 60 items graded by 5 of 8 raters of varied skill, every third item gold. */
export function panel() {
  const rng = createRng("panel");
  const ratings: { item: string; rater: string; grade: number }[] = [];
  const truth = new Map<string, number>();
  for (let i = 0; i < 60; i++) {
    const grade = 1 + rng.int(4);
    if (i % 3 === 0) truth.set(`i${i}`, grade);
    for (let j = 0; j < 5; j++) {
      const rater = (i + j) % 8;
      const off = rng.next() < 0.5 + rater / 20 ? 0 : rng.next() < 0.5 ? -1 : 1;
      ratings.push({ item: `i${i}`, rater: `r${rater}`, grade: Math.min(4, Math.max(1, grade + off)) });
    }
  }
  return { ratings, truth };
}
