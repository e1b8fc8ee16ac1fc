/** How an interleaving experiment merges its systems' lists (docs/online-experiments.md). */
export const INTERLEAVING_METHODS = ["team-draft", "multileaving", "probabilistic"] as const;
export type InterleavingMethod = (typeof INTERLEAVING_METHODS)[number];

/** What each method is called on a page, with how many systems it takes. */
export const INTERLEAVING_METHOD_LABELS: Record<InterleavingMethod, string> = {
  "team-draft": "Team-draft interleaving (two systems)",
  multileaving: "Team-draft multileaving (three or more systems)",
  probabilistic: "Probabilistic interleaving (two systems)",
};
