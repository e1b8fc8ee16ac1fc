import type { interleavingDashboard } from "~/results/interleaving.server";
import type { Json } from "~/utils/json-type";
import { InterleavingDashboard } from "../interleaving-dashboard";
import { InterleavingDataQuality } from "../interleaving-quality";
import { MultileavingDashboard } from "./multileaving";

/** What the analyst page and a frozen snapshot of an interleaving experiment show. */
export type InterleavingFiguresOfPage = Pick<
  Json<Awaited<ReturnType<typeof interleavingDashboard>>>,
  "method" | "control" | "challenger" | "systems" | "figures" | "multileaving" | "quality" | "otherTeams"
>;

/** An interleaving experiment's results: the win rate of two systems, or a multileave's preference matrix. */
export function InterleavingSection({ interleaving }: { interleaving: InterleavingFiguresOfPage }) {
  return (
    <>
      {interleaving.method === "multileaving" ? (
        <p className="muted">
          Multileaved experiment: every convener session sees one list drafted in turns from{" "}
          {interleaving.systems.join(", ")} (team-draft multileaving); each system is credited with the
          candidates it placed that the convener clicked or adopted.
        </p>
      ) : (
        <p className="muted">
          Interleaving experiment: every convener session sees one list drafted in turns from{" "}
          {interleaving.control} (control) and {interleaving.challenger} ({interleaving.method}); each system
          is credited with the candidates it placed that the convener clicked or adopted.
        </p>
      )}
      {interleaving.multileaving ? (
        <MultileavingDashboard figures={interleaving.multileaving} />
      ) : interleaving.figures ? (
        <InterleavingDashboard
          figures={interleaving.figures}
          control={interleaving.control}
          challenger={interleaving.challenger}
        />
      ) : (
        <div className="empty">No sessions with an impression yet.</div>
      )}
      <InterleavingDataQuality quality={interleaving.quality} otherTeams={interleaving.otherTeams} />
    </>
  );
}
