import { offlineViewSchema, type OfflineView } from "../../scripts/offline/view";

/**
 * The offline report's view settings from a query string or a form (`excludeConflicts=on`,
 * `stratify=subject`, `from`, `to`, `maxCommittee`; empty means unset), or the first problem as a sentence.
 */
export function parseOfflineView(
  values: URLSearchParams | FormData,
): { view: OfflineView } | { error: string } {
  const text = (name: string) => {
    const v = values.get(name);
    return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
  };
  const parsed = offlineViewSchema.safeParse({
    excludeConflicts: text("excludeConflicts") !== null,
    stratify: text("stratify"),
    from: text("from"),
    to: text("to"),
    maxCommittee: text("maxCommittee") === null ? null : Number(text("maxCommittee")),
  });
  return parsed.success ? { view: parsed.data } : { error: parsed.error.issues[0].message };
}

/** The view settings of a report page's request; a 400 with a sentence when one is not usable. */
export function offlineViewParams(request: Request): OfflineView {
  const result = parseOfflineView(new URL(request.url).searchParams);
  if ("error" in result) {
    throw new Response(JSON.stringify({ message: result.error }), {
      status: 400,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return result.view;
}
