import type { GradedRating } from "../judgement/aggregate";
import type { ItemText } from "../judgement/clustering";
import { createRng } from "../lib/random";

/**
 * The agreement benches' panel: 1,500 items (30 per proposal) × 12 raters, grades 1–4, each rater right
 * with probability 0.5–0.9, else a neighbouring grade; 300 items gold. Each item's text is 30 words,
 * half from its proposal's vocabulary for its true grade (items that read alike are judged alike), half
 * from a shared one. The ratings and truth are the stream `agreement-worker.ts` always drew.
 */
export function agreementFixture(): {
  ratings: GradedRating[];
  truth: Map<string, number>;
  texts: ItemText[];
} {
  const rng = createRng("bench-agreement");
  const items = 1500;
  const raters = 12;
  const skill = Array.from({ length: raters }, () => 0.5 + 0.4 * rng.next());
  const ratings: GradedRating[] = [];
  const truth = new Map<string, number>();
  const grades: number[] = [];
  for (let i = 0; i < items; i++) {
    const grade = 1 + rng.int(4);
    grades.push(grade);
    if (i % 5 === 0) truth.set(`p${i % 50}:c${i}`, grade);
    for (let j = 0; j < raters; j++) {
      const off = rng.next() < skill[j] ? 0 : rng.next() < 0.5 ? -1 : 1;
      ratings.push({
        item: `p${i % 50}:c${i}`,
        rater: `r${j}`,
        grade: Math.min(4, Math.max(1, grade + off)),
      });
    }
  }
  const words = createRng("bench-agreement:texts");
  const texts = grades.map((grade, i) => {
    const proposal = `p${i % 50}`;
    const text = Array.from({ length: 30 }, (_, w) =>
      w % 2 ? `w${words.int(400)}` : `${proposal}g${grade}w${words.int(12)}`,
    ).join(" ");
    return { item: `${proposal}:c${i}`, proposal, text };
  });
  return { ratings, truth, texts };
}
