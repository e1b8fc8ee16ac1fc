/**
 * A group's place in one ranked list. The position weight is the DCG weight w(r) = 1 / log2(r + 1)
 * (Singh & Joachims, "Fairness of Exposure in Rankings", KDD 2018), ranks from 1.
 */
export const dcgWeight = (rank: number) => 1 / Math.log2(rank + 1);

/** share@K: the group's members among the top K, over K. */
export function shareAt(inGroup: readonly boolean[], k: number): number {
  let count = 0;
  for (let r = 0; r < Math.min(k, inGroup.length); r++) if (inGroup[r]) count++;
  return count / k;
}

/** exposure@K: the group's part of the top K's total position weight. */
export function exposureAt(inGroup: readonly boolean[], k: number): number {
  let group = 0;
  let all = 0;
  for (let r = 0; r < Math.min(k, inGroup.length); r++) {
    const w = dcgWeight(r + 1);
    all += w;
    if (inGroup[r]) group += w;
  }
  return all > 0 ? group / all : 0;
}

/** Mean exposure of the group's members over the whole list (Singh & Joachims); null with no member. */
export function meanExposure(inGroup: readonly boolean[]): number | null {
  let sum = 0;
  let count = 0;
  inGroup.forEach((member, r) => {
    if (!member) return;
    sum += dcgWeight(r + 1);
    count++;
  });
  return count > 0 ? sum / count : null;
}
