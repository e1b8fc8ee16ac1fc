import type { OfflineReport } from "../../../scripts/offline/report";
import type { OnlineReport } from "../../../scripts/online/report";
import type { CampaignResults } from "../../../scripts/judgement/campaign-results";
import type { AgreementReport } from "../../../scripts/judgement/agreement";
import type { Json } from "~/utils/json-type";
import { OfflineDashboard } from "./offline-dashboard";
import { OnlineDashboard, type DailyPoint } from "./online-dashboard";
import { ExpertDashboard } from "./expert-dashboard";
import { ClicksDashboard } from "./clicks-dashboard";
import { InterleavingSection, type InterleavingFiguresOfPage } from "./interleaving/section";
import { InterleavingSlicesSection } from "./interleaving/slices-table";
import { MultileavingSlicesSection } from "./interleaving/multileave-slices-table";
import type { ExperimentClicksResult } from "../../../scripts/clicks/experiment-report";
import { GoldFigures } from "~/components/gold-figures";
import { AdoptedCompositionSection, type CompositionFigures } from "./online/adopted-composition";
import { Fairness, type FairnessFigures } from "./offline/fairness";
import { GradesByGroup, type GradesByGroupFigures } from "./expert/grades-by-group";
import type { CampaignGold } from "~/data/campaigns.server";
import type { FairnessTarget } from "../../../scripts/inputs/fairness-targets";
import { targetsText } from "~/schemas/fairness-targets";

/** A frozen result drawn with the dashboard of its kind: the same page, from the stored numbers. */
export function SnapshotDashboard({
  kind,
  result,
  parameters,
}: {
  kind: string;
  result: unknown;
  parameters: Record<string, unknown>;
}) {
  if (kind === "offline") return <OfflineSnapshot result={result} />;
  if (kind === "expert") return <ExpertSnapshot result={result} />;
  if (kind === "clicks") {
    const r = result as Json<ExperimentClicksResult>;
    return (
      <>
        <p className="muted">
          Click models of experiment “{r.experiment.name}” ({r.experiment.key}).
        </p>
        <ClicksDashboard result={r} />
      </>
    );
  }
  if ((result as { interleaving?: unknown }).interleaving) {
    const r = result as {
      experiment: { key: string; name: string };
      interleaving: InterleavingFiguresOfPage &
        Partial<Pick<Parameters<typeof InterleavingSlicesSection>[0], "slices">> &
        Partial<Parameters<typeof MultileavingSlicesSection>[0]>;
      composition?: CompositionFigures | null;
    };
    return (
      <>
        <p className="muted">
          Experiment “{r.experiment.name}” ({r.experiment.key}).
        </p>
        <InterleavingSection interleaving={r.interleaving} />
        {/* Snapshots frozen before the slices were kept have none. */}
        <InterleavingSlicesSection {...r.interleaving} slices={r.interleaving.slices ?? null} />
        <MultileavingSlicesSection multileavingSlices={r.interleaving.multileavingSlices ?? null} />
        {r.composition ? <AdoptedCompositionSection composition={r.composition} /> : null}
      </>
    );
  }
  const r = result as Json<OnlineReport> & {
    experiment: { key: string; name: string };
    daily?: DailyPoint[];
    composition?: CompositionFigures | null;
  };
  return (
    <>
      <p className="muted">
        Experiment “{r.experiment.name}” ({r.experiment.key}).
      </p>
      <OnlineDashboard
        report={r}
        daily={r.daily}
        control={String(parameters.control ?? Object.keys(r.arms)[0])}
      />
      {r.composition ? <AdoptedCompositionSection composition={r.composition} /> : null}
    </>
  );
}

function OfflineSnapshot({ result }: { result: unknown }) {
  const r = result as Json<OfflineReport> & {
    fairness?: {
      parameters: { ks: number[]; minGroup: number; targets?: FairnessTarget[] };
      report: FairnessFigures;
    };
  };
  const targets = r.fairness?.parameters.targets ?? [];
  return (
    <>
      <OfflineDashboard report={r} />
      {targets.length ? (
        <p className="muted">Fairness targets set when this snapshot was frozen: {targetsText(targets)}.</p>
      ) : null}
      {r.fairness ? (
        <Fairness
          report={r.fairness.report}
          ks={r.fairness.parameters.ks}
          minGroup={r.fairness.parameters.minGroup}
          targets={null}
        />
      ) : null}
    </>
  );
}

function ExpertSnapshot({ result }: { result: unknown }) {
  const r = result as {
    campaign: { id: number; name: string };
    results: Json<CampaignResults> | null;
    agreement: Json<AgreementReport> | null;
    gold?: Json<CampaignGold> | null;
    gradesByGroup?: Json<GradesByGroupFigures> | null;
  };
  return (
    <>
      <p className="muted">Campaign “{r.campaign.name}”.</p>
      {r.results ? (
        <ExpertDashboard results={r.results} agreement={r.agreement} />
      ) : (
        <div className="empty">There were no grades when this snapshot was frozen.</div>
      )}
      {r.gradesByGroup ? <GradesByGroup figures={r.gradesByGroup} /> : null}
      {r.gold !== undefined ? (
        <GoldFigures gold={r.gold} empty="There were no gold items when this snapshot was frozen." />
      ) : null}
    </>
  );
}
