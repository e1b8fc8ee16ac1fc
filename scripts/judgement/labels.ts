import { lowerMedian } from "../stats/quantile";

/** A grade of 1–4, or null for "can't judge". */
export type Grade = 1 | 2 | 3 | 4 | null;

/**
 * The aggregated label of one (proposal, candidate): the median grade, the lower middle for even
 * counts, "can't judge" left out; null when nobody could judge. An adjudicated grade overrides it.
 */
export function aggregateGrade(grades: readonly Grade[], adjudicated?: Grade): Grade {
  if (adjudicated != null) return adjudicated;
  const judged = grades.filter((g): g is 1 | 2 | 3 | 4 => g !== null);
  return judged.length === 0 ? null : (lowerMedian(judged) as 1 | 2 | 3 | 4);
}

/** TREC qrels relevance of a grade: rel = grade − 1 (1 irrelevant → 0 … 4 highly relevant → 3). */
export function gradeToRel(grade: 1 | 2 | 3 | 4): number {
  return grade - 1;
}

/** Grades of one pair that span two points or more go to the disagreement queue. */
export function isDisagreement(grades: readonly Grade[]): boolean {
  const judged = grades.filter((g): g is 1 | 2 | 3 | 4 => g !== null);
  return judged.length >= 2 && Math.max(...judged) - Math.min(...judged) >= 2;
}
