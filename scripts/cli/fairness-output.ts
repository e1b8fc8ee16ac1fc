import type { Figure, GroupFigures, SystemFairness } from "../fairness/report";
import type { Cell } from "./output";

/** The columns of a fairness table (`assay fairness`, `assay offline --fairness`). */
export const FAIRNESS_HEADERS = [
  "system",
  "attribute",
  "group",
  "measure",
  "value",
  "lower",
  "upper",
  "lists",
];

/** The representation measures: where a group stands in the top K against pool, committees and target. */
export const REPRESENTATION = (measure: string) => measure.startsWith("share@") || measure === "committees";

/** JSON: each measure a number where it is found (system → attribute → groups → value → measure), its
 * interval beside it under `ci`; suppressed groups carry the reason instead of figures. */
export function reportJson(
  report: Record<string, SystemFairness>,
  only: (measure: string) => boolean = () => true,
) {
  const numbers = (all: Record<string, Figure>) => {
    const figures = Object.entries(all).filter(([m]) => only(m));
    return {
      ...Object.fromEntries(figures.map(([m, f]) => [m, f.value])),
      ci: Object.fromEntries(figures.map(([m, f]) => [m, f.ci])),
    };
  };
  return {
    systems: Object.fromEntries(
      Object.entries(report).map(([system, s]) => [
        system,
        {
          proposals: s.proposals,
          ...Object.fromEntries(
            Object.entries(s.attributes).map(([name, a]) => [
              name,
              {
                ...numbers(a.figures),
                groups: Object.fromEntries(
                  Object.entries(a.groups).map(([group, g]) => [
                    group,
                    g.suppressed
                      ? { poolSize: null, suppressed: g.suppressed }
                      : {
                          poolSize: g.poolSize,
                          poolShare: g.poolShare,
                          ...(g.target !== undefined ? { target: g.target } : {}),
                          ...numbers(g.figures),
                        },
                  ]),
                ),
              },
            ]),
          ),
          ...(s.diversity ? { diversity: numbers(s.diversity) } : {}),
        },
      ]),
    ),
  };
}

export function rowsOf(
  report: Record<string, SystemFairness>,
  only: (measure: string) => boolean = () => true,
): Cell[][] {
  const row = (system: string, attribute: string, group: string, measure: string, f: Figure): Cell[] => [
    system,
    attribute,
    group,
    measure,
    f.value,
    f.ci?.lower,
    f.ci?.upper,
    f.lists,
  ];
  const groupRows = (system: string, name: string, group: string, g: GroupFigures): Cell[][] => {
    // Pool and target are given, not estimated from lists: no interval, no count of lists.
    const fixed = (measure: string, value: number): Cell[] => [
      system,
      name,
      group,
      measure,
      value,
      null,
      null,
      null,
    ];
    if (g.suppressed) return [[system, name, group, g.suppressed, null, null, null, null]];
    return [
      fixed("pool", g.poolShare),
      ...(g.target !== undefined ? [fixed("target", g.target)] : []),
      ...Object.entries(g.figures)
        .filter(([m]) => only(m))
        .map(([m, f]) => row(system, name, group, m, f)),
    ];
  };
  return Object.entries(report).flatMap(([system, s]) => [
    ...Object.entries(s.attributes).flatMap(([name, a]) => [
      ...Object.entries(a.figures)
        .filter(([m]) => only(m))
        .map(([m, f]) => row(system, name, "", m, f)),
      ...Object.entries(a.groups).flatMap(([group, g]) => groupRows(system, name, group, g)),
    ]),
    ...Object.entries(s.diversity ?? {})
      .filter(([m]) => only(m))
      .map(([m, f]) => row(system, "", "", m, f)),
  ]);
}
