/**
 * The slice of a convener with no value imported for the attribute (apart from a value "unknown" as
 * given). Its own module so the page names it without bundling the statistics.
 */
export const NO_VALUE_SLICE = "(no value)";
