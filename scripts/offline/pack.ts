import type { OfflineInput } from "./report";

/**
 * The tier-1 input in a form that crosses to a worker thread cheaply: every candidate id once, and
 * gold committees and lists as typed arrays of indices into that table (a structured clone of
 * nested maps of strings copies every id of every list, one object at a time). Map and set orders
 * are kept, so the report computed from the unpacked input is the report of the original.
 */
export interface PackedOfflineInput {
  proposals: OfflineInput["proposals"];
  /** The catalog's ids first (in its order), then ids found only in gold or lists. */
  candidates: string[];
  catalogSize: number;
  gold: PackedNesting;
  systems: {
    key: string;
    name: string;
    protocol?: string;
    proposals: string[];
    variantOffsets: Int32Array;
    variants: PackedNesting;
    /** Scores parallel to `variants.items` (NaN for none), when the system has any. */
    scores?: Float64Array;
    /** Prediction times as [proposal, variant, ms] and the build figures: few, so plain values. */
    latencies?: [string, string, number][];
    buildSeconds?: number | null;
    memoryMb?: number | null;
  }[];
  /** Expert grades as [proposal, candidate, grade], with where they come from. */
  expertLabels?: { source: string; labels: [string, string, number][] };
  /** Declared conflicts as [proposal, candidate, reason] and profile dates as [candidate, date]: few, so plain arrays. */
  conflicts?: [string, string, string][];
  profileDates?: [string, string][];
}

/** Named groups of candidate indices: group i holds items[offsets[i] .. offsets[i + 1]). */
interface PackedNesting {
  names: string[];
  offsets: Int32Array;
  items: Int32Array;
}

/** Packs `input` (see PackedOfflineInput); `unpackOfflineInput` gives it back. */
export function packOfflineInput(input: OfflineInput): PackedOfflineInput {
  const index = new Map<string, number>();
  for (const id of input.catalog) index.set(id, index.size);
  const catalogSize = index.size;
  const indexOf = (id: string) => {
    let i = index.get(id);
    if (i === undefined) index.set(id, (i = index.size));
    return i;
  };
  const gold = nest([...input.gold].map(([proposal, members]) => [proposal, [...members].map(indexOf)]));
  const systems = input.systems.map((s) => {
    const proposals: string[] = [];
    const variantOffsets = new Int32Array(s.lists.size + 1);
    const groups: [string, number[]][] = [];
    for (const [proposal, variants] of s.lists) {
      proposals.push(proposal);
      for (const [variant, items] of variants) groups.push([variant, items.map(indexOf)]);
      variantOffsets[proposals.length] = groups.length;
    }
    const variants = nest(groups);
    return {
      key: s.key,
      name: s.name,
      ...(s.protocol ? { protocol: s.protocol } : {}),
      proposals,
      variantOffsets,
      variants,
      ...(s.scores ? { scores: packScores(s, variants) } : {}),
      ...(s.latencies ? { latencies: flatten(s.latencies) } : {}),
      ...(s.buildSeconds != null ? { buildSeconds: s.buildSeconds } : {}),
      ...(s.memoryMb != null ? { memoryMb: s.memoryMb } : {}),
    };
  });
  const conflicts =
    input.conflicts &&
    [...input.conflicts].flatMap(([p, m]) =>
      [...m].map(([c, reason]): [string, string, string] => [p, c, reason]),
    );
  const profileDates = input.profileDates && [...input.profileDates];
  return {
    proposals: input.proposals,
    candidates: [...index.keys()],
    catalogSize,
    gold,
    systems,
    conflicts,
    profileDates,
    ...(input.expertLabels
      ? { expertLabels: { source: input.expertLabels.source, labels: flatten(input.expertLabels.labels) } }
      : {}),
  };
}

/** The OfflineInput that `packOfflineInput` packed. */
export function unpackOfflineInput(packed: PackedOfflineInput): OfflineInput {
  const ids = packed.candidates;
  const groupsOf = (n: PackedNesting, from = 0, to = n.names.length) => {
    const out: [string, string[]][] = [];
    for (let g = from; g < to; g++)
      out.push([n.names[g], Array.from(n.items.subarray(n.offsets[g], n.offsets[g + 1]), (i) => ids[i])]);
    return out;
  };
  return {
    proposals: packed.proposals,
    gold: new Map(groupsOf(packed.gold).map(([proposal, members]) => [proposal, new Set(members)])),
    systems: packed.systems.map((s) => ({
      key: s.key,
      name: s.name,
      ...(s.protocol ? { protocol: s.protocol } : {}),
      lists: new Map(
        s.proposals.map((p, i) => [
          p,
          new Map(groupsOf(s.variants, s.variantOffsets[i], s.variantOffsets[i + 1])),
        ]),
      ),
      ...(s.scores ? { scores: unpackScores(s as Required<typeof s>) } : {}),
      ...(s.latencies ? { latencies: nested(s.latencies) } : {}),
      ...(s.buildSeconds != null ? { buildSeconds: s.buildSeconds } : {}),
      ...(s.memoryMb != null ? { memoryMb: s.memoryMb } : {}),
    })),
    catalog: new Set(ids.slice(0, packed.catalogSize)),
    conflicts: packed.conflicts && conflictMap(packed.conflicts),
    profileDates: packed.profileDates && new Map(packed.profileDates),
    ...(packed.expertLabels
      ? { expertLabels: { source: packed.expertLabels.source, labels: nested(packed.expertLabels.labels) } }
      : {}),
  };
}

/** A two-level map as [outer, inner, value] rows, in the maps' order. */
function flatten(map: ReadonlyMap<string, ReadonlyMap<string, number>>): [string, string, number][] {
  return [...map].flatMap(([a, inner]) => [...inner].map(([b, v]): [string, string, number] => [a, b, v]));
}

function nested(rows: [string, string, number][]): Map<string, Map<string, number>> {
  const map = new Map<string, Map<string, number>>();
  for (const [a, b, v] of rows) {
    if (!map.has(a)) map.set(a, new Map());
    map.get(a)!.set(b, v);
  }
  return map;
}

function conflictMap(rows: [string, string, string][]): Map<string, Map<string, string>> {
  const map = new Map<string, Map<string, string>>();
  for (const [proposal, candidate, reason] of rows) {
    if (!map.has(proposal)) map.set(proposal, new Map());
    map.get(proposal)!.set(candidate, reason);
  }
  return map;
}

function nest(groups: [string, number[]][]): PackedNesting {
  const offsets = new Int32Array(groups.length + 1);
  groups.forEach(([, items], g) => (offsets[g + 1] = offsets[g] + items.length));
  const items = new Int32Array(offsets[groups.length]);
  groups.forEach(([, members], g) => items.set(members, offsets[g]));
  return { names: groups.map(([name]) => name), offsets, items };
}

/** The system's scores laid out like its packed items (NaN where an item or a whole list has none). */
function packScores(s: OfflineInput["systems"][number], variants: PackedNesting): Float64Array {
  const out = new Float64Array(variants.items.length).fill(NaN);
  let g = 0;
  for (const [proposal, lists] of s.lists) {
    for (const variant of lists.keys()) {
      const scores = s.scores!.get(proposal)?.get(variant);
      if (scores) scores.forEach((v, i) => (out[variants.offsets[g] + i] = v ?? NaN));
      g++;
    }
  }
  return out;
}

function unpackScores(s: PackedOfflineInput["systems"][number] & { scores: Float64Array }) {
  const toScore = (v: number) => (Number.isNaN(v) ? null : v);
  return new Map(
    s.proposals.map((p, i) => {
      const byVariant = new Map<string, (number | null)[]>();
      for (let g = s.variantOffsets[i]; g < s.variantOffsets[i + 1]; g++) {
        byVariant.set(
          s.variants.names[g],
          Array.from(s.scores.subarray(s.variants.offsets[g], s.variants.offsets[g + 1]), toScore),
        );
      }
      return [p, byVariant];
    }),
  );
}
