import type { InterleavingFigures } from "../../../scripts/interleaving/figures";
import type { Json } from "~/utils/json-type";
import { CREDITS, interleavingVerdictSentence } from "./interleaving/verdict";
import { InterleavingResultsTable } from "./interleaving/results-table";
import { DailyWinRate } from "./interleaving/daily-win-rate";

export { interleavingVerdictSentence, winRateVerdict } from "./interleaving/verdict";

/**
 * The results of an interleaving experiment: sessions, wins of each system, ties and sessions without
 * preference, the challenger's win rate with its bootstrap interval over conveners and the sign-test p,
 * by click and by adoption credit; the cumulative win rate day by day with its interval as a band.
 */
export function InterleavingDashboard({
  figures,
  control,
  challenger,
}: {
  figures: Json<InterleavingFigures>;
  control: string;
  challenger: string;
}) {
  return (
    <>
      <p className="notice" role="status" id="interleaving-verdict">
        {interleavingVerdictSentence(figures, control, challenger)}
      </p>
      <InterleavingResultsTable figures={figures} control={control} challenger={challenger} />
      <p className="muted">
        Win rate = (wins of {challenger} + ties / 2) / (wins + ties); sessions with no preference are counted
        but not in the rate. A win rate above 50% favours {challenger}. Interval: 95% percentile bootstrap
        over conveners; p: two-sided exact binomial test of {challenger}&apos;s wins among all wins (ties left
        out).
      </p>
      {figures.daily.length ? (
        <>
          <h2>Day by day</h2>
          <div className="side-by-side">
            {CREDITS.map((credit) => (
              <DailyWinRate
                key={credit.key}
                daily={figures.daily}
                credit={credit}
                control={control}
                challenger={challenger}
              />
            ))}
          </div>
        </>
      ) : null}
    </>
  );
}
