import type { Report } from "./cells";
import { ScoreStatistics } from "./score-statistics";
import { ScoreBandsSection } from "./score-bands";
import { Exposure } from "./exposure";

/**
 * The score statistics, score bands (reliability diagram) and diversity-and-exposure sections of the
 * offline report (definitions: scripts/offline/score-stats.ts, score-bands.ts, exposure.ts).
 */
export function OfflineScoreSections({ report }: { report: Report }) {
  const systems = report.systems.filter((s) => s.scoreStats && s.exposure);
  if (systems.length === 0) return null;
  return (
    <>
      <ScoreStatistics systems={systems} />
      <ScoreBandsSection systems={systems} />
      <Exposure systems={systems} />
    </>
  );
}
