/**
 * PageRank over the co-committee graph, for the `pagerank` baseline (db/catalog/catalog/baselines.ts). Nodes are
 * candidates 0..n−1; two candidates are linked with weight w = the number of committees they sat on
 * together (an undirected graph: each link is followed both ways).
 */
export interface WeightedGraph {
  n: number;
  /** Links of node u: targets[offsets[u] .. offsets[u + 1]), with their weights. */
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
}

export const DAMPING = 0.85;

/** The co-committee graph of the committees (each a list of node indices < n). */
export function coCommitteeGraph(committees: readonly (readonly number[])[], n: number): WeightedGraph {
  const links = Array.from({ length: n }, () => new Map<number, number>());
  for (const committee of committees) {
    const members = [...new Set(committee)];
    for (const u of members)
      for (const v of members) if (u !== v) links[u].set(v, (links[u].get(v) ?? 0) + 1);
  }
  const offsets = new Int32Array(n + 1);
  links.forEach((l, u) => (offsets[u + 1] = offsets[u] + l.size));
  const targets = new Int32Array(offsets[n]);
  const weights = new Float64Array(offsets[n]);
  links.forEach((l, u) => {
    let i = offsets[u];
    for (const [v, w] of [...l].sort((a, b) => a[0] - b[0])) {
      targets[i] = v;
      weights[i++] = w;
    }
  });
  return { n, offsets, targets, weights };
}

/**
 * PageRank by power iteration, with networkx.pagerank's semantics (weighted, uniform teleport):
 *   x'(v) = (1 − d)/n + d · Σ_u x(u) w(u, v) / W(u) + d · D / n,
 * W(u) = Σ_v w(u, v), and D = Σ x(u) over dangling nodes (W(u) = 0: candidates with no link), whose
 * rank is spread uniformly over every node, as networkx does by default. Starts from `start` (or 1/n)
 * and stops when Σ |x' − x| < tolerance or after maxIterations. The ranks sum to 1.
 */
export function pagerank(
  graph: WeightedGraph,
  o: { damping?: number; tolerance?: number; maxIterations?: number; start?: Float64Array } = {},
): Float64Array {
  const { n, offsets, targets, weights } = graph;
  const d = o.damping ?? DAMPING;
  const tolerance = o.tolerance ?? 1e-12;
  const maxIterations = o.maxIterations ?? 1000;
  if (n === 0) return new Float64Array(0);
  const strength = new Float64Array(n);
  for (let u = 0; u < n; u++) for (let i = offsets[u]; i < offsets[u + 1]; i++) strength[u] += weights[i];
  let x = o.start ? Float64Array.from(o.start) : new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let dangling = 0;
    for (let u = 0; u < n; u++) if (strength[u] === 0) dangling += x[u];
    next.fill((1 - d) / n + (d * dangling) / n);
    for (let u = 0; u < n; u++) {
      if (strength[u] === 0) continue;
      const share = (d * x[u]) / strength[u];
      for (let i = offsets[u]; i < offsets[u + 1]; i++) next[targets[i]] += share * weights[i];
    }
    let change = 0;
    for (let u = 0; u < n; u++) change += Math.abs(next[u] - x[u]);
    [x, next] = [next, x];
    if (change < tolerance) break;
  }
  return x;
}

/**
 * PageRank of the graph without one committee (leave-one-out): each link between two of its members
 * loses the weight that committee gave it (a link left at weight 0 is gone), as if that committee had
 * never sat. The graph is restored before returning.
 */
export function pagerankWithout(
  graph: WeightedGraph,
  committee: readonly number[],
  o: Parameters<typeof pagerank>[1] = {},
): Float64Array {
  const members = new Set(committee);
  const touched: number[] = [];
  for (const u of members) {
    for (let i = graph.offsets[u]; i < graph.offsets[u + 1]; i++) {
      if (members.has(graph.targets[i])) {
        graph.weights[i] -= 1;
        touched.push(i);
      }
    }
  }
  try {
    return pagerank(graph, o);
  } finally {
    for (const i of touched) graph.weights[i] += 1;
  }
}
