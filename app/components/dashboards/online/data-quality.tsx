import type { OnlineReport } from "../../../../scripts/online/report";
import type { Json } from "~/utils/json-type";
import { UnknownIds } from "~/components/unknown-ids";
import { formatCount } from "~/utils/format";

/** What only a live report has: the conveners exposed and the ids the events named but the database lacks. */
export interface LiveCounts {
  exposedUnits: number;
  unknown: {
    proposals: number;
    candidates: number;
    proposalExamples: string[];
    candidateExamples: string[];
  };
}

/** What the events held that the metrics left out or counted once; live data adds its unknown ids. */
export function DataQuality({ report, live }: { report: Json<OnlineReport>; live?: LiveCounts }) {
  return (
    <ul>
      <li>{formatCount(report.dataQuality.duplicateEvents)} retried (duplicate) events counted once</li>
      <li>
        {formatCount(report.dataQuality.sessionsWithoutImpression)} sessions without an impression (left out
        of the metrics)
      </li>
      <li>
        {formatCount(report.dataQuality.eventsAboutUnshownCandidates)} events about candidates never shown in
        their session
      </li>
      <li>
        {formatCount(report.dataQuality.eventsOfExcludedUnits)} events of conveners seen in more than one arm
        (excluded)
      </li>
      {live ? (
        <>
          <li>
            <UnknownIds unknown={live.unknown} />
          </li>
          <li>{formatCount(live.exposedUnits)} conveners exposed in all</li>
        </>
      ) : null}
    </ul>
  );
}
