/**
 * Pieces shared by the cascade-chain models (DBN, CCM): after examining rank k the user goes on with
 * one probability after a click (`afterClick[k]`) and another after none (`afterSkip[k]`).
 */

/**
 * PyClick's tail function T(start) (`_get_tail_clicks`): the probability of each observed click value
 * from `start` on given E_start = 1, and the examination probabilities. It reads the parameters of
 * ranks 0, 1, … rather than start, start + 1, … (CLICK-MODELS.md §7.2); `exam[k]` is for rank start + k.
 */
export function pyclickTail(
  clicks: Uint8Array,
  base: number,
  n: number,
  start: number,
  attr: Float64Array,
  afterClick: Float64Array,
  afterSkip: Float64Array,
  click: Float64Array,
  exam: Float64Array,
): void {
  let e = 1;
  exam[0] = 1;
  for (let k = 0; k < n - start; k++) {
    const a = attr[k];
    if (clicks[base + start + k]) {
      click[k] = a * e;
      e = afterClick[k];
    } else {
      click[k] = 1 - a * e;
      e = (e * afterSkip[k] * (1 - a)) / click[k];
    }
    exam[k + 1] = e;
  }
}

/**
 * Exact posterior of examination below the last click (textbook EM). `f` = P(E_start = 1 | clicks up
 * to the last one) (1 for a click-less session, start 0). Fills `nc[r]` = P(no click at r..n−1 | E_r = 1)
 * and `post[r]` = P(E_r = 1 | all clicks) for r ≥ start; returns Z = P(no click from start on | clicks above).
 */
export function skipTail(
  n: number,
  start: number,
  f: number,
  attr: Float64Array,
  cont: number,
  nc: Float64Array,
  post: Float64Array,
): number {
  nc[n] = 1;
  for (let r = n - 1; r >= start; r--) nc[r] = (1 - attr[r]) * (1 - cont + cont * nc[r + 1]);
  if (start >= n) return 1;
  const z = 1 - f + f * nc[start];
  let reach = f;
  for (let r = start; r < n; r++) {
    post[r] = (reach * nc[r]) / z;
    reach *= (1 - attr[r]) * cont;
  }
  return z;
}
