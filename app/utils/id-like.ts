/** An id-like value ("prop-0001", "reviewer-ranker-v2"): kept on one line, never split at its hyphen. */
const ID_LIKE = /^[A-Za-z][\w.]*-[\w.-]*\d[\w.-]*$/;

/** The class of a table cell holding `value`: "id" for an id-like string (see app.css), else none. */
export function idClass(value: unknown): "id" | undefined {
  return typeof value === "string" && ID_LIKE.test(value) ? "id" : undefined;
}
