import type { CampaignResults } from "../../../scripts/judgement/campaign-results";
import type { AgreementReport } from "../../../scripts/judgement/agreement";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { AllFiguresTable } from "~/components/all-figures-table";
import {
  ComparisonSentence,
  LearningCurveTable,
  SubjectNdcgTable,
  SystemResultsTable,
} from "~/components/campaign-tables";
import { NdcgChart } from "./expert/ndcg-chart";
import { AgreementChart, AgreementSummary } from "./expert/agreement";

/**
 * The tier-2 dashboard drawn from a campaign's results: the live page passes what it computed
 * (with the learning curve), an opened snapshot the stored results and agreement.
 */
export function ExpertDashboard({
  results,
  agreement,
  curve,
}: {
  results: Json<CampaignResults>;
  agreement: Json<AgreementReport> | null;
  curve?: { raters: number; labelAgreement: number; kendallTau: number | null }[];
}) {
  return (
    <>
      <SystemResultsTable results={results} label="nDCG by system" />
      <div className="side-by-side">
        <NdcgChart results={results} />
        {agreement ? <AgreementChart agreement={agreement} /> : null}
      </div>
      {agreement ? <AgreementSummary agreement={agreement} /> : null}
      <ComparisonSentence results={results} />
      <h2>By subject (nDCG@10)</h2>
      <SubjectNdcgTable results={results} />
      {curve ? (
        <>
          <h2>Label learning curve</h2>
          <LearningCurveTable curve={curve} />
        </>
      ) : null}
      <h2>Every figure</h2>
      <AllFiguresTable
        rows={resultRows("expert", { results })}
        caption="Every expert figure"
        fileName="expert-figures.csv"
      />
    </>
  );
}
