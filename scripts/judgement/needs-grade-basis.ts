/**
 * Where "needs another grade" takes the next grade's chances from (scripts/judgement/needs-grade.ts):
 * the pair's Dawid–Skene posterior, or the spread of grades. A file of its own without imports, so
 * the campaign page can name the rule without bundling the estimates.
 */
export type NextGradeBasis = "dawid-skene" | "spread";

/**
 * Dawid–Skene's confusion matrices need raters who meet many pairs: the posterior is used with at least
 * this many raters and this many grades per graded pair on average, else the spread of grades.
 */
export const DS_MIN_RATERS = 3;
export const DS_MIN_GRADES_PER_PAIR = 2;
