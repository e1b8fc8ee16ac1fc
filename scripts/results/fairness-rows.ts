import type { Figure, SystemFairness } from "../fairness/report";
import type { AdoptedComposition, GradedAttribute } from "../fairness/composition";
import type { ResultRow as Row } from "./result-row";

const figureRow = (system: string, group: string, measure: string, f: Figure | undefined): Row => ({
  system,
  group,
  measure,
  value: f?.value ?? null,
  lower: f?.ci?.lower ?? null,
  upper: f?.ci?.upper ?? null,
});

/**
 * The fairness figures a snapshot holds (issue 27) as flat rows, the group as `fairness:attribute=value`
 * (as `assay offline --fairness --csv` names it): the offline section's figures per system, a campaign's
 * grades by group, an experiment's composition of adopted candidates per arm and its differences.
 * Groups under the minimum have no figure and give no row; snapshots frozen before these figures give none.
 */
export function fairnessRows(kind: string, result: Record<string, unknown>): Row[] {
  const group = (attribute: string, value: string) => `fairness:${attribute}=${value}`;
  if (kind === "offline") {
    const report = (result.fairness as { report: Record<string, SystemFairness> } | undefined)?.report;
    return Object.entries(report ?? {}).flatMap(([system, s]) =>
      Object.entries(s.attributes).flatMap(([attribute, a]) =>
        Object.entries(a.groups).flatMap(([value, g]) => [
          ...Object.entries(g.figures).map(([measure, f]) =>
            figureRow(system, group(attribute, value), measure, f),
          ),
          // The analyst's target for the group, so two snapshots frozen with other targets differ here.
          ...(g.target === undefined
            ? []
            : [
                {
                  system,
                  group: group(attribute, value),
                  measure: "target",
                  value: g.target,
                  lower: null,
                  upper: null,
                },
              ]),
        ]),
      ),
    );
  }
  if (kind === "expert") {
    const figures = (
      result.gradesByGroup as { attributes: Record<string, GradedAttribute> } | null | undefined
    )?.attributes;
    return Object.entries(figures ?? {}).flatMap(([attribute, a]) =>
      Object.entries(a.groups).flatMap(([value, g]) =>
        g.suppressed
          ? []
          : [
              figureRow("experts", group(attribute, value), "shareOfGraded", g.graded),
              figureRow("experts", group(attribute, value), "shareOfGraded3to4", g.high),
              figureRow(
                "experts",
                group(attribute, value),
                "shareOfGraded3to4 − shareOfGraded",
                g.difference,
              ),
            ],
      ),
    );
  }
  const composition = result.composition as AdoptedComposition | null | undefined;
  return Object.entries(composition?.attributes ?? {}).flatMap(([attribute, a]) =>
    Object.entries(a.groups).flatMap(([value, g]) => [
      ...Object.entries(g.arms ?? {}).map(([arm, f]) =>
        figureRow(arm, group(attribute, value), "shareOfAdopted", f),
      ),
      ...Object.entries(g.differences ?? {}).map(([arm, f]) =>
        figureRow(
          `${arm} vs ${composition!.control}`,
          group(attribute, value),
          "shareOfAdopted difference",
          f,
        ),
      ),
    ]),
  );
}
