/**
 * Diversity and exposure of a system's lists, beside Coverage@K. Read over the proposals the report
 * evaluates (those with at least one gold member) and, like Coverage@K, over each proposal's first
 * query variant.
 */

/** One evaluated proposal as the exposure measures read it: its first list, or none. */
export interface ExposureList {
  proposal: string;
  subject: string | null;
  /** The first variant's candidates in rank order; empty or missing when the system gave no list. */
  items: readonly string[];
}

export interface ExposureAtK {
  k: number;
  /** Share of top-K slots held by candidates outside the head (Abdollahpouri's long tail). */
  longTailShare: number | null;
  /** Gini index of top-K exposure over the catalog (0 = every candidate shown equally often). */
  gini: number | null;
  /** Mean over proposals of the Shannon entropy (bits) of the subjects of the top-K candidates. */
  subjectEntropy: number | null;
  /** Share of top-K slots (with a known candidate subject) from a subject other than the proposal's. */
  otherSubjectShare: number | null;
  /** Share of top-K slots whose candidate has no subject (never sat on a committee). */
  unknownSubjectShare: number | null;
}

export interface ExposureGroup {
  /** Evaluated proposals in the group. */
  proposals: number;
  /** Share of them for which the system returned a non-empty list (prediction coverage). */
  predictionCoverage: number | null;
  byK: ExposureAtK[];
}

export interface ExposureReport {
  /** The head is the most-recommended `headShare` of the catalog (at each K). */
  headShare: number;
  overall: ExposureGroup;
  subjects: Record<string, ExposureGroup>;
}

export const HEAD_SHARE = 0.2;
const NONE = "(none)";

/**
 * Prediction coverage, long-tail share@K, Gini of exposure and subject entropy, overall and per subject.
 *  - Prediction coverage: proposals with a non-empty list / proposals.
 *  - Long-tail share@K (APLT, Abdollahpouri, Burke and Mobasher, "Controlling Popularity Bias in
 *    Learning-to-Rank Recommendation", RecSys 2017, and "Managing Popularity Bias in Recommender
 *    Systems with Personalized Re-ranking", FLAIRS 2019): the head is the ⌈20%⌉ of the catalog most
 *    often in the system's top-K lists over all evaluated proposals (ties by candidate id); the share is
 *    Σ top-K slots of candidates outside the head / Σ top-K slots. The head is the system's, overall,
 *    also when a subject's share is read.
 *  - Gini of exposure (RecBole's `GiniIndex`): with e_(1) ≤ … ≤ e_(n) the top-K slot counts of the n
 *    catalog candidates (never-shown ones count 0), G = Σ_i (2i − n − 1) e_(i) / (n Σ_i e_i).
 *  - Subject entropy: H = −Σ_s p_s log2 p_s over the subjects of a proposal's top-K candidates with a
 *    known subject, averaged over proposals having one. A candidate's subject is the one most frequent
 *    among the proposals whose committees they sat on (ties by name); other candidates have none.
 *  - Other-subject share: over proposals with a subject, Σ top-K slots whose candidate's subject differs
 *    from the proposal's / Σ top-K slots with a known candidate subject.
 */
export function exposureReport(
  lists: readonly ExposureList[],
  ks: readonly number[],
  catalog: ReadonlySet<string>,
  candidateSubject: ReadonlyMap<string, string>,
): ExposureReport {
  const heads = new Map(ks.map((k) => [k, headOf(lists, k, catalog.size)]));
  const group = (members: readonly ExposureList[]): ExposureGroup => {
    const withList = members.filter((l) => l.items.length > 0).length;
    return {
      proposals: members.length,
      predictionCoverage: members.length ? withList / members.length : null,
      byK: ks.map((k) => measuresAtK(members, k, heads.get(k)!, catalog, candidateSubject)),
    };
  };
  const names = [...new Set(lists.map((l) => l.subject ?? NONE))].sort();
  return {
    headShare: HEAD_SHARE,
    overall: group(lists),
    subjects: Object.fromEntries(names.map((name) => [name, group(lists.filter((l) => (l.subject ?? NONE) === name))])),
  };
}

/** Top-K slot counts per candidate over the lists. */
export function exposureCounts(lists: readonly ExposureList[], k: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of lists) for (let r = 0; r < Math.min(k, l.items.length); r++) counts.set(l.items[r], (counts.get(l.items[r]) ?? 0) + 1);
  return counts;
}

/** The ⌈HEAD_SHARE · catalog size⌉ candidates most often in the top K (ties by candidate id). */
function headOf(lists: readonly ExposureList[], k: number, catalogSize: number): Set<string> {
  const size = Math.ceil(HEAD_SHARE * catalogSize);
  const ranked = [...exposureCounts(lists, k)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Set(ranked.slice(0, size).map(([id]) => id));
}

/**
 * Gini index of exposure: the catalog's candidates (and any listed outside it) with their slot counts,
 * G = Σ_i (2i − n − 1) e_(i) / (n Σ e), e sorted ascending, i = 1..n. Null when nothing is shown.
 */
export function giniIndex(counts: ReadonlyMap<string, number>, catalog: ReadonlySet<string>): number | null {
  const values: number[] = [];
  for (const id of catalog) values.push(counts.get(id) ?? 0);
  for (const [id, e] of counts) if (!catalog.has(id)) values.push(e);
  const n = values.length;
  const total = values.reduce((a, b) => a + b, 0);
  if (n === 0 || total === 0) return null;
  values.sort((a, b) => a - b);
  let s = 0;
  values.forEach((e, i) => (s += (2 * (i + 1) - n - 1) * e));
  return s / (n * total);
}

/** Shannon entropy in bits of the labels' frequencies. */
export function entropyBits(labels: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const s of labels) counts.set(s, (counts.get(s) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / labels.length;
    h -= p * Math.log2(p);
  }
  return h === 0 ? 0 : h;
}

function measuresAtK(
  lists: readonly ExposureList[],
  k: number,
  head: ReadonlySet<string>,
  catalog: ReadonlySet<string>,
  candidateSubject: ReadonlyMap<string, string>,
): ExposureAtK {
  let slots = 0;
  let tail = 0;
  let unknown = 0;
  let known = 0;
  let other = 0;
  let entropySum = 0;
  let entropyProposals = 0;
  for (const l of lists) {
    const top = l.items.slice(0, k);
    const subjects: string[] = [];
    for (const c of top) {
      slots++;
      if (!head.has(c)) tail++;
      const s = candidateSubject.get(c);
      if (s === undefined) unknown++;
      else subjects.push(s);
    }
    if (subjects.length) {
      entropySum += entropyBits(subjects);
      entropyProposals++;
    }
    if (l.subject !== null) {
      known += subjects.length;
      other += subjects.filter((s) => s !== l.subject).length;
    }
  }
  return {
    k,
    longTailShare: slots ? tail / slots : null,
    gini: giniIndex(exposureCounts(lists, k), catalog),
    subjectEntropy: entropyProposals ? entropySum / entropyProposals : null,
    otherSubjectShare: known ? other / known : null,
    unknownSubjectShare: slots ? unknown / slots : null,
  };
}

/**
 * Each candidate's subject: the subject most frequent among the proposals whose committees they sat
 * on (ties by subject name); candidates never on a committee of a proposal with a subject have none.
 */
export function candidateSubjects(
  proposals: readonly { id: string; subject: string | null }[],
  gold: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, string> {
  const subjectOf = new Map(proposals.map((p) => [p.id, p.subject]));
  const tally = new Map<string, Map<string, number>>();
  for (const [proposal, members] of gold) {
    const s = subjectOf.get(proposal);
    if (!s) continue;
    for (const c of members) {
      if (!tally.has(c)) tally.set(c, new Map());
      const t = tally.get(c)!;
      t.set(s, (t.get(s) ?? 0) + 1);
    }
  }
  const out = new Map<string, string>();
  for (const [c, t] of tally) {
    const [best] = [...t].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.set(c, best[0]);
  }
  return out;
}
