import type { interleavingDashboard } from "~/results/interleaving.server";
import type { Json } from "~/utils/json-type";
import { formatCount } from "~/utils/format";

type InterleavingPage = Json<Awaited<ReturnType<typeof interleavingDashboard>>>;

/** An interleaving experiment's data quality: what was counted once, and what could not be credited. */
export function InterleavingDataQuality({
  quality,
  otherTeams,
}: {
  quality: InterleavingPage["quality"];
  otherTeams: InterleavingPage["otherTeams"];
}) {
  return (
    <>
      <h2>Data quality</h2>
      <ul>
        <li>{formatCount(quality.events)} events</li>
        <li>{formatCount(quality.duplicateEvents)} retried (duplicate) events counted once</li>
        <li>
          {formatCount(quality.sessionsWithoutImpression)} sessions without an impression (not credited)
        </li>
        <li>
          {formatCount(quality.eventsAboutUnshownCandidates)} events about candidates never shown in their
          session (not credited)
        </li>
        <li>{formatCount(quality.impressionsWithoutTeams)} impressions without teams (not credited)</li>
        {quality.sessionsWithoutLists !== undefined ? (
          <li>
            {formatCount(quality.sessionsWithoutLists)} sessions whose list the systems&apos; stored lists do
            not explain (not credited)
          </li>
        ) : null}
        {otherTeams.length ? <li>Teams that are neither system: {otherTeams.join(", ")}</li> : null}
      </ul>
    </>
  );
}
