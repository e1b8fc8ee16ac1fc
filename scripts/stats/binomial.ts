import { logGamma } from "./distributions";

export interface BinomialTestResult {
  k: number;
  n: number;
  p: number;
  pValue: number;
}

/** ln of the binomial probability C(n, i) p^i (1 − p)^(n − i), with the edge cases p = 0 and p = 1 exact. */
function logBinomialPmf(i: number, n: number, p: number, logC: number): number {
  if (p === 0) return i === 0 ? 0 : -Infinity;
  if (p === 1) return i === n ? 0 : -Infinity;
  return logC + i * Math.log(p) + (n - i) * Math.log1p(-p);
}

/**
 * Exact two-sided binomial test of k successes in n trials against success probability p, as scipy's
 * `binomtest(k, n, p).pvalue` (scipy/stats/_binomtest.py): the probability of every outcome at most as
 * likely as the observed one, with scipy's relative slack of 1e-7 on "as likely", capped at 1; exactly 1
 * when k = np. Each term is summed as it is (never as 1 − CDF), so far-tail p-values keep their digits.
 */
export function binomialTest(k: number, n: number, p = 0.5): BinomialTestResult {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`the number of trials must be a whole number of at least 1, not ${n}`);
  if (!Number.isInteger(k) || k < 0 || k > n)
    throw new Error(`the successes must be a whole number from 0 to ${n}, not ${k}`);
  if (!(p >= 0 && p <= 1)) throw new Error(`the success probability must be between 0 and 1, not ${p}`);
  if (k === p * n) return { k, n, p, pValue: 1 };
  const logCn = logGamma(n + 1);
  const logPmf = (i: number) => logBinomialPmf(i, n, p, logCn - logGamma(i + 1) - logGamma(n - i + 1));
  const threshold = logPmf(k) + Math.log1p(1e-7);
  let pValue = 0;
  for (let i = 0; i <= n; i++) {
    const l = logPmf(i);
    if (l <= threshold) pValue += Math.exp(l);
  }
  return { k, n, p, pValue: Math.min(1, pValue) };
}
