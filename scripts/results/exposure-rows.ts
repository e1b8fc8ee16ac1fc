import type { ResultRow as Row } from "./result-row";

type ExposureGroup = {
  predictionCoverage: number | null;
  byK: { k: number; longTailShare: number | null; gini: number | null; subjectEntropy: number | null }[];
};
type WithExposure = {
  key: string;
  userCoverage?: { share: number | null };
  exposure?: { overall: ExposureGroup; subjects: Record<string, ExposureGroup> };
};

/**
 * The offline report's diversity and exposure figures as flat rows beside the measures (no intervals):
 * `PredictionCoverage`, `LongTailShare@K`, `Gini@K`, `SubjectEntropy@K` per system and group, and
 * `UserCoverage` (proposals with any list, of all) per system. Reports
 * frozen before these figures existed give none.
 */
export function exposureRows(systems: readonly WithExposure[] | undefined): Row[] {
  const rows: Row[] = [];
  const row = (system: string, group: string, measure: string, value: number | null) =>
    rows.push({ system, group, measure, value, lower: null, upper: null });
  for (const s of systems ?? []) {
    if (s.userCoverage) row(s.key, "overall", "UserCoverage", s.userCoverage.share);
    if (!s.exposure) continue;
    for (const [group, g] of [
      ["overall", s.exposure.overall] as const,
      ...Object.entries(s.exposure.subjects),
    ]) {
      row(s.key, group, "PredictionCoverage", g.predictionCoverage);
      for (const x of g.byK) {
        row(s.key, group, `LongTailShare@${x.k}`, x.longTailShare);
        row(s.key, group, `Gini@${x.k}`, x.gini);
        row(s.key, group, `SubjectEntropy@${x.k}`, x.subjectEntropy);
      }
    }
  }
  return rows;
}
