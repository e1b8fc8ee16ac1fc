import { exposureReport, type ExposureList, type ExposureReport } from "./exposure";
import { scoreBands, type ScoreBands } from "./score-bands";
import { scoreStats, type ScoreStats, type ScoredList } from "./score-stats";
import type { OfflineInput } from "./report";

/** The score and exposure sections of one system in the offline report. */
export interface SystemScoreSections {
  scoreStats: ScoreStats;
  /** Null when the system gives no scores. */
  scoreBands: ScoreBands | null;
  exposure: ExposureReport;
}

/**
 * Score statistics, score bands and exposure of one system over the evaluated proposals (those with a
 * gold member), each read on the proposal's first query variant as Coverage@K is. `depth` is the
 * largest K of the grid; `bands` are `--bands` thresholds (deciles when absent).
 */
export function systemScoreSections(
  input: OfflineInput,
  system: OfflineInput["systems"][number],
  labelled: OfflineInput["proposals"],
  o: {
    ks: readonly number[];
    bands?: readonly number[];
    level: number;
    candidateSubject: ReadonlyMap<string, string>;
  },
): SystemScoreSections {
  const exposureLists: ExposureList[] = [];
  const scored: ScoredList[] = [];
  for (const p of labelled) {
    const variants = system.lists.get(p.id);
    const first = variants?.size ? [...variants.entries()][0] : undefined;
    exposureLists.push({ proposal: p.id, subject: p.subject, items: first?.[1] ?? [] });
    if (!first) continue;
    scored.push({
      proposal: p.id,
      subject: p.subject,
      items: first[1],
      scores: system.scores?.get(p.id)?.get(first[0]) ?? null,
    });
  }
  return {
    scoreStats: scoreStats(scored, Math.max(...o.ks)),
    scoreBands: scoreBands(scored, input.gold, { thresholds: o.bands, level: o.level }),
    exposure: exposureReport(exposureLists, o.ks, input.catalog, o.candidateSubject),
  };
}
