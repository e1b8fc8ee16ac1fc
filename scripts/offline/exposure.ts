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
  const encoded = encodeLists(lists, catalog, candidateSubject);
  const { names, groupOf, G } = encoded;
  const byK = ks.map((k) => exposureAtK(encoded, k, catalog.size));
  const group = (g: number): ExposureGroup => {
    const members = g === G ? lists.length : lists.filter((_, q) => groupOf[q] === g).length;
    const withList = lists.filter((l, q) => (g === G || groupOf[q] === g) && l.items.length > 0).length;
    return {
      proposals: members,
      predictionCoverage: members ? withList / members : null,
      byK: byK.map((atK) => atK[g]),
    };
  };
  return {
    headShare: HEAD_SHARE,
    overall: group(G),
    subjects: Object.fromEntries(names.map((name, g) => [name, group(g)])),
  };
}

/** The lists with candidates and subjects as small integers, so every K and group counts in typed arrays. */
interface EncodedLists {
  /** Each list's candidates by index: the catalog's first, then any listed outside it. */
  lists: Int32Array[];
  ids: string[];
  /** Each candidate's subject index, −1 when it has none. */
  candidateSubjectOf: Int32Array;
  /** Each list's proposal subject: −1 the proposal has none; −2 a subject no candidate has (every known slot is "other"). */
  proposalSubjectOf: number[];
  subjects: number;
  /** The groups (proposal subjects, sorted, "(none)" among them) and each list's; G, the overall row, is the last. */
  names: string[];
  groupOf: Int32Array;
  G: number;
}

function encodeLists(
  lists: readonly ExposureList[],
  catalog: ReadonlySet<string>,
  candidateSubject: ReadonlyMap<string, string>,
): EncodedLists {
  const index = new Map<string, number>();
  for (const id of catalog) index.set(id, index.size);
  const encoded = lists.map((l) =>
    Int32Array.from(l.items, (id) => {
      let i = index.get(id);
      if (i === undefined) index.set(id, (i = index.size));
      return i;
    }),
  );
  const ids = [...index.keys()];
  const subjectIndex = new Map([...new Set(candidateSubject.values())].sort().map((name, i) => [name, i]));
  const candidateSubjectOf = Int32Array.from(
    ids,
    (id) => subjectIndex.get(candidateSubject.get(id) ?? "\u0000") ?? -1,
  );
  const proposalSubjectOf = lists.map((l) => (l.subject === null ? -1 : (subjectIndex.get(l.subject) ?? -2)));
  const names = [...new Set(lists.map((l) => l.subject ?? NONE))].sort();
  const groupOf = Int32Array.from(lists, (l) => names.indexOf(l.subject ?? NONE));
  return {
    lists: encoded,
    ids,
    candidateSubjectOf,
    proposalSubjectOf,
    subjects: subjectIndex.size,
    names,
    groupOf,
    G: names.length,
  };
}

/** Every figure at one K, per group (rows 0..G−1) and overall (row G). */
function exposureAtK(e: EncodedLists, k: number, catalogSize: number): ExposureAtK[] {
  const { lists, ids, groupOf, G } = e;
  const n = ids.length;
  const counts = new Float64Array((G + 1) * n); // rows 0..G−1: groups; row G: overall
  for (let q = 0; q < lists.length; q++) {
    const items = lists[q];
    const row = groupOf[q] * n;
    for (let r = 0; r < Math.min(k, items.length); r++) {
      counts[row + items[r]]++;
      counts[G * n + items[r]]++;
    }
  }
  const head = headOf(counts.subarray(G * n), ids, Math.ceil(HEAD_SHARE * catalogSize));
  return slotTallies(e, k, head).map((t, g): ExposureAtK => ({
    k,
    longTailShare: t.slots ? t.tail / t.slots : null,
    gini: giniOf(Float64Array.from(counts.subarray(g * n, (g + 1) * n))),
    subjectEntropy: t.entropyProposals ? t.entropySum / t.entropyProposals : null,
    otherSubjectShare: t.known ? t.other / t.known : null,
    unknownSubjectShare: t.slots ? t.unknown / t.slots : null,
  }));
}

/** Per group and overall: top-K slots, those outside the head, of unknown, known and other subject, and entropies. */
function slotTallies(e: EncodedLists, k: number, head: Uint8Array) {
  const { lists, groupOf, G, candidateSubjectOf, proposalSubjectOf } = e;
  const tally = Array.from({ length: G + 1 }, () => ({
    slots: 0,
    tail: 0,
    unknown: 0,
    known: 0,
    other: 0,
    entropySum: 0,
    entropyProposals: 0,
  }));
  const subjectCounts = new Int32Array(e.subjects);
  for (let q = 0; q < lists.length; q++) {
    const items = lists[q];
    const depth = Math.min(k, items.length);
    let tail = 0;
    let unknown = 0;
    let other = 0;
    subjectCounts.fill(0);
    for (let r = 0; r < depth; r++) {
      const c = items[r];
      if (!head[c]) tail++;
      const s = candidateSubjectOf[c];
      if (s < 0) unknown++;
      else {
        subjectCounts[s]++;
        if (s !== proposalSubjectOf[q]) other++;
      }
    }
    const known = depth - unknown;
    let h = 0;
    for (let s = 0; s < subjectCounts.length; s++)
      if (subjectCounts[s]) h -= (subjectCounts[s] / known) * Math.log2(subjectCounts[s] / known);
    for (const t of [tally[groupOf[q]], tally[G]]) {
      t.slots += depth;
      t.tail += tail;
      t.unknown += unknown;
      if (proposalSubjectOf[q] !== -1) {
        t.known += known;
        t.other += other;
      }
      if (known > 0) {
        t.entropySum += h === 0 ? 0 : h;
        t.entropyProposals++;
      }
    }
  }
  return tally;
}

/** Marks the `size` candidates most often in the top K (ties by candidate id; never-shown ones are never head). */
function headOf(counts: Float64Array, ids: readonly string[], size: number): Uint8Array {
  const shown: number[] = [];
  for (let c = 0; c < counts.length; c++) if (counts[c] > 0) shown.push(c);
  shown.sort((a, b) => counts[b] - counts[a] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  const head = new Uint8Array(counts.length);
  for (const c of shown.slice(0, size)) head[c] = 1;
  return head;
}

/**
 * Gini index of exposure: the catalog's candidates (and any listed outside it) with their slot counts,
 * G = Σ_i (2i − n − 1) e_(i) / (n Σ e), e sorted ascending, i = 1..n. Null when nothing is shown.
 */
export function giniIndex(counts: ReadonlyMap<string, number>, catalog: ReadonlySet<string>): number | null {
  const values = [...catalog].map((id) => counts.get(id) ?? 0);
  for (const [id, e] of counts) if (!catalog.has(id)) values.push(e);
  return giniOf(Float64Array.from(values));
}

/**
 * The Gini index of the values (exposure counts, never negative). Most of a catalog is never shown:
 * the zeros sort first and add nothing, so only the shown values are sorted, each at the place it
 * would have among all n (the same sum, term for term, as sorting them all).
 */
function giniOf(values: Float64Array): number | null {
  const n = values.length;
  let total = 0;
  let shown = 0;
  for (let i = 0; i < n; i++) {
    total += values[i];
    if (values[i] !== 0) shown++;
  }
  if (n === 0 || total === 0) return null;
  const nonzero = new Float64Array(shown);
  for (let i = 0, k = 0; i < n; i++) if (values[i] !== 0) nonzero[k++] = values[i];
  nonzero.sort();
  const zeros = n - shown;
  let s = 0;
  for (let i = 0; i < shown; i++) s += (2 * (zeros + i + 1) - n - 1) * nonzero[i];
  return s / (n * total);
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
