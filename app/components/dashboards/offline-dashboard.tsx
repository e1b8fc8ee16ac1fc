import type { OfflineReport } from "../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { AllFiguresTable } from "~/components/all-figures-table";
import { OfflineViewLine } from "./offline/view-line";
import { HitRateTable } from "./offline/hit-rate-table";
import { SpreadTable } from "./offline/spread-table";
import { LatencyChart, ResourcesTable } from "./offline/resources";
import { VariantTests } from "./offline/variant-tests";
import { HitRateChart, MetricsAgainstKChart } from "./offline/depth-charts";
import { KHitCdf, KHitHistogram } from "./offline/k-hit-charts";
import { RankDistributionTable } from "./offline/rank-distribution";
import { SubjectTable } from "./offline/subject-table";
import { OfflineScoreSections } from "./offline/score-sections";
import { OfflineAdvice } from "./offline/advice";
import { OfflineIntegrity } from "./offline/integrity";
import { FailureCases } from "./offline/failure-cases";
import { PairwiseComparisons } from "./offline/pairwise-comparisons";
import { ProtocolSection } from "./offline/protocol";
import { GroundTruthSection } from "./offline/ground-truth";

/**
 * The tier-1 dashboard drawn from an offline report: the live page computes the report, an opened
 * snapshot passes the stored one, and both show the same thing.
 */
export function OfflineDashboard({ report }: { report: Json<OfflineReport> }) {
  return (
    <>
      <OfflineViewLine report={report} />
      <h2>Hit rate by depth</h2>
      <HitRateTable report={report} />

      <h2>Accuracy, prediction time and build</h2>
      <ResourcesTable report={report} />
      <LatencyChart report={report} />

      <h2>Spread across proposals</h2>
      <SpreadTable report={report} />

      <h2>Charts</h2>
      <div className="side-by-side">
        <HitRateChart report={report} />
        <KHitHistogram report={report} />
        <KHitCdf report={report} />
      </div>
      <MetricsAgainstKChart report={report} />

      <h2>Rank of the first relevant member</h2>
      <RankDistributionTable report={report} />

      <ProtocolSection report={report} />

      <h2>By subject</h2>
      <SubjectTable report={report} />

      <VariantTests report={report} />

      <OfflineScoreSections report={report} />

      <h2>What to do with it</h2>
      <OfflineAdvice report={report} />

      <OfflineIntegrity report={report} />

      <h2>Failure cases</h2>
      <FailureCases report={report} />

      <h2>Pairwise comparison</h2>
      <p className="muted">
        B − A in each measure's unit (HR in percentage points), with its paired 95% interval before any
        adjustment; "better" or "worse" where the Holm-adjusted p is below 0.05, read by the measure's
        direction (a lower rank is better). Where the comparison alone would be called but the adjustment for
        the table's many comparisons takes it back, the verdict says so ("inconclusive after Holm (better
        before)").
      </p>
      <PairwiseComparisons report={report} />

      <GroundTruthSection report={report} />

      <h2>Every figure</h2>
      <AllFiguresTable
        rows={resultRows("offline", report)}
        caption="Every offline figure"
        fileName="offline-figures.csv"
      />
    </>
  );
}
