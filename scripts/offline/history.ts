/**
 * What a baseline may learn from for a proposal of a given date. When any proposal is dated, a dated
 * proposal sees only the proposals dated strictly before it (YYYY-MM-DD): what its convener could have
 * known; an undated committee cannot be placed before it and is left out. An undated proposal, or any
 * proposal when none is dated, gets null: the caller then learns from every committee but the
 * proposal's own (leave-one-out). `build` runs once per distinct date, on the earlier proposals in their
 * given order.
 */
export function earlierHistory<P extends { date?: string | null }, H>(
  proposals: readonly P[],
  build: (earlier: P[]) => H,
): (date: string | null) => H | null {
  const dated = proposals.filter((p) => p.date);
  const built = new Map<string, H>();
  return (date) => {
    if (!date || dated.length === 0) return null;
    if (!built.has(date)) built.set(date, build(dated.filter((p) => p.date! < date)));
    return built.get(date)!;
  };
}
