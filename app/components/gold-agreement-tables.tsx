import type { CampaignGold } from "~/data/campaigns.server";
import type { GoldAgreement } from "../../scripts/judgement/gold";
import type { Json } from "~/utils/json-type";
import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatP, formatRate } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";

/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});
const signed = (v: number | null) => formatNumber(v, { signed: true });
/** A mean difference with its 95% interval and unit: "+0.21 [+0.05, +0.37] grade points". */
export const differenceText = (g: Pick<GoldAgreement, "meanDifference" | "meanDifferenceCi">) =>
  g.meanDifference === null
    ? "—"
    : `${signed(g.meanDifference)}${g.meanDifferenceCi ? ` ${formatCi(g.meanDifferenceCi, signed)}` : ""}\u00a0grade points`;
const flagText = (g: { flagged: boolean; gold: number }) =>
  g.flagged ? "Biased (p < 0.01)" : g.gold < 2 ? "Too few" : "";

/** The columns shared by the per-expert and per-proposal tables. */
function agreementColumns<T>() {
  return [
    {
      id: "gold",
      accessorKey: "gold",
      header: "Gold graded",
      ...cellAs(formatCount),
    },
    {
      id: "exact",
      accessorKey: "exact",
      header: "Exact agreement",
      ...cellAs(formatRate),
    },
    {
      id: "withinOne",
      accessorKey: "withinOne",
      header: "Within one",
      ...cellAs(formatRate),
    },
    {
      id: "meanDifference",
      accessorKey: "meanDifference",
      header: "Mean difference (grade − truth, grade points)",
      ...cellAs(signed),
    },
    {
      id: "meanDifferenceCi",
      accessorKey: "meanDifferenceCi",
      header: "95% CI of the difference",
      cell: (c: { getValue: () => unknown }) => (c.getValue() as string | null) ?? "—",
      aggregatedCell: () => null,
      enableSorting: false,
      meta: { numeric: true },
    },
    {
      id: "tStatistic",
      accessorKey: "tStatistic",
      header: "t",
      ...cellAs(formatNumber),
    },
    {
      id: "pValue",
      accessorKey: "pValue",
      header: "p (t-test)",
      ...cellAs(formatP),
    },
    { id: "flag", accessorKey: "flag", header: "Flag" },
  ] as { id: string; accessorKey: keyof T & string; header: string }[];
}

const agreementRow = (g: Json<GoldAgreement>) => ({
  gold: g.gold,
  exact: g.exact,
  withinOne: g.withinOne,
  meanDifference: g.meanDifference,
  meanDifferenceCi: g.meanDifferenceCi ? formatCi(g.meanDifferenceCi, signed) : null,
  meanDifferenceText: differenceText(g),
  tStatistic: g.tStatistic,
  pValue: g.pValue,
  flag: flagText(g),
});

type ExpertRow = ReturnType<typeof agreementRow> & { expert: string };

/**
 * Rater accuracy against the known grades: who is flagged, then the agreement per expert and per
 * proposal (with the fewest judgements per pair and the pooled variance).
 */
export function GoldAgreementTables({ gold }: { gold: Json<CampaignGold> }) {
  const experts = Object.entries(gold.raters).map(([expert, g]) => ({
    expert,
    ...agreementRow(g),
  }));
  return (
    <>
      <FlaggedExperts goldItems={gold.goldItems} experts={experts} />
      <h3>Per expert</h3>
      <TableScroll label="Per expert">
        <ClientTable
          caption="Agreement with the gold items per expert"
          fileName="gold-per-expert.csv"
          data={experts}
          columns={[{ id: "expert", accessorKey: "expert", header: "Expert" }, ...agreementColumns()]}
        />
      </TableScroll>
      <h3>Per proposal</h3>
      <p className="muted">
        Each gold item's average vote against its known grade; the fewest judgements any item of the proposal
        has, and the pooled within-item variance of its grades.
      </p>
      <ProposalAgreementTable proposals={gold.proposals} />
    </>
  );
}

/** How experts are flagged, and who is. */
function FlaggedExperts({ goldItems, experts }: { goldItems: number; experts: ExpertRow[] }) {
  const flagged = experts.filter((e) => e.flag.startsWith("Biased"));
  return (
    <p>
      {formatCount(goldItems)} gold items. An expert is flagged when the one-sample t-test of their
      differences from the known grades gives p &lt; 0.01
      {flagged.length
        ? `: ${flagged
            .map((e) => `${e.expert} (mean difference ${e.meanDifferenceText}, p ${formatP(e.pValue)})`)
            .join(", ")}.`
        : "; nobody is flagged."}
    </p>
  );
}

function ProposalAgreementTable({ proposals }: { proposals: Json<CampaignGold>["proposals"] }) {
  const rows = Object.entries(proposals).map(([proposal, p]) => ({
    proposal,
    items: p.items,
    minJudgements: p.minJudgements,
    pooledVariance: p.pooledVariance,
    ...agreementRow(p),
  }));
  return (
    <TableScroll label="Per proposal">
      <ClientTable
        caption="Agreement with the gold items per proposal"
        fileName="gold-per-proposal.csv"
        pageSize={10}
        data={rows}
        columns={[
          { id: "proposal", accessorKey: "proposal", header: "Proposal" },
          {
            id: "items",
            accessorKey: "items",
            header: "Pairs graded",
            ...cellAs(formatCount),
          },
          {
            id: "minJudgements",
            accessorKey: "minJudgements",
            header: "Fewest judgements per pair",
            ...cellAs(formatCount),
          },
          {
            id: "pooledVariance",
            accessorKey: "pooledVariance",
            header: "Pooled variance",
            ...cellAs(formatNumber),
          },
          ...agreementColumns(),
        ]}
      />
    </TableScroll>
  );
}
