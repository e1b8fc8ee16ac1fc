import { useEffect } from "react";
import { useRevalidator } from "@remix-run/react";
import type { CampaignGold } from "~/data/campaigns.server";
import type { Json } from "~/utils/json-type";
import { AggregationAccuracyTable } from "~/components/gold-aggregation";
import { GoldAgreementTables } from "~/components/gold-agreement-tables";
import { LearningCurves } from "~/components/gold-learning-curves";
import { TextFigures } from "~/components/gold-text-figures";
import { Computing } from "~/components/computed-at";
import type { Progress } from "../../scripts/lib/progress";

/**
 * The gold section of a campaign page: rater accuracy against the known grades, per proposal the same
 * with the fewest judgements per item and the pooled variance, each aggregation's accuracy, and the
 * learning curves (chart and table). `gold` is null without gold items, "computing" while the worker
 * pool works (the page revalidates until it is done); `empty` says how gold items are added.
 */
export function GoldFigures({
  gold,
  empty,
  progress,
  stale = false,
}: {
  gold: Json<CampaignGold> | "computing" | null;
  empty: string;
  /** While computing: learning-curve points done, of all, as the task reports them. */
  progress?: Progress | null;
  /** `gold` is the last one finished, shown while new figures are computed (new grades, or a Recompute). */
  stale?: boolean;
}) {
  return (
    <section aria-labelledby="gold-heading">
      <h2 id="gold-heading">Gold items and rater accuracy</h2>
      {gold === null ? (
        <div className="empty">{empty}</div>
      ) : gold === "computing" ? (
        <GoldComputing progress={progress ?? null} stale={false} />
      ) : (
        <>
          {stale ? <GoldComputing progress={progress ?? null} stale /> : null}
          <GoldTables gold={gold} />
        </>
      )}
    </section>
  );
}

/**
 * Shown while the learning curves are computed, alone or above the last figures (`stale`); asks the server
 * again every 8 seconds (each asks for the whole page).
 */
function GoldComputing({ progress, stale }: { progress: Progress | null; stale: boolean }) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setTimeout(() => {
      if (state === "idle") revalidate();
    }, 8000);
    return () => clearTimeout(timer);
  }, [revalidate, state]);
  return stale ? (
    <Computing
      what="gold figures"
      why="New grades or data since these figures: recomputing"
      progress={progress}
      unit="learning-curve points"
    />
  ) : (
    <Computing
      what="the gold figures (learning curves over 1,000 random draws of raters)"
      progress={progress}
      unit="learning-curve points"
    />
  );
}

function GoldTables({ gold }: { gold: Json<CampaignGold> }) {
  return (
    <>
      <GoldAgreementTables gold={gold} />
      <h3>Aggregation methods</h3>
      <AggregationAccuracyTable gold={gold} />
      <h3>How many experts are enough</h3>
      <LearningCurves gold={gold} />
      {gold.texts ? <TextFigures texts={gold.texts} /> : null}
    </>
  );
}
