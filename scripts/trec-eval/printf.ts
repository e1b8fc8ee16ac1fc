/**
 * C's printf of doubles, as trec_eval prints them: `%.Nf` rounds the exact binary value, an exact tie
 * to even (glibc); JavaScript's toFixed rounds an exact tie away from zero (0.03125 → "0.0313" where
 * trec_eval prints "0.0312").
 */
export function cFixed(x: number, decimals: number): string {
  // 0/0 on x86 is a NaN with the sign bit set, which glibc prints as "-nan"; JavaScript has one NaN.
  if (Number.isNaN(x)) return "-nan";
  if (!Number.isFinite(x)) return x < 0 ? "-inf" : "inf";
  const negative = x < 0 || Object.is(x, -0);
  const magnitude = Math.abs(x);
  let text = magnitude.toFixed(decimals);
  // An exact tie: the digit after the last kept one is 5 and nothing non-zero follows it.
  if (magnitude < 1e21) {
    const exact = magnitude.toFixed(Math.min(100, decimals + 60));
    const cut = exact.indexOf(".") + 1 + decimals;
    if (exact[cut] === "5" && /^0*$/.test(exact.slice(cut + 1))) {
      const truncated = decimals === 0 ? exact.slice(0, cut - 1) : exact.slice(0, cut);
      const lastDigit = Number(truncated[truncated.length - 1]);
      if (lastDigit % 2 === 0) text = truncated;
    }
  }
  return negative ? `-${text}` : text;
}

/** printf's `%6.4f`. */
export function format64(x: number): string {
  return cFixed(x, 4).padStart(6);
}

/** printf's `%-22s`. */
export function left22(s: string): string {
  return s.padEnd(22);
}

/** C's atof: the longest numeric prefix, 0 when there is none. */
export function atof(s: string): number {
  const m = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(s);
  return m ? Number(m[0].trim()) : 0;
}

/** C's atol: the integer prefix, 0 when there is none. */
export function atol(s: string): number {
  const m = /^\s*[+-]?\d+/.exec(s);
  return m ? Number(m[0].trim()) : 0;
}
