/**
 * The defaults every result shares, defined once: the pages, the snapshots, the worker pool and the CLI
 * read them here, so the same data and settings give the same figures wherever they are computed.
 */

/** The bootstrap's seed when none is given: one seed and one data set give one interval. */
export const DEFAULT_SEED = "assay";

/** Resamples of the CLI's bootstraps (and of the pure functions' when none are given). */
export const DEFAULT_B = 2000;

/**
 * Resamples of every page's bootstrap, and of a snapshot frozen without its own B: fewer than the CLI's,
 * so a page answers in seconds, and a snapshot frozen from a page holds that page's intervals.
 */
export const PAGE_B = 1000;
