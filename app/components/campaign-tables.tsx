import { Link } from "@remix-run/react";
import type { CampaignResults } from "../../scripts/judgement/campaign-results";
import { DisagreementRow, type QueueRow } from "~/components/disagreement-row";
import { LinkPager } from "~/components/link-pager";
import type { Json } from "~/utils/json-type";
import { ClientTable } from "~/components/client-table";
import {
  formatCi,
  formatCount,
  formatNumber,
  formatP,
  formatRate,
  formatValue,
  verdict,
} from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import { TableScroll } from "~/components/table-scroll";

/** A measure's value in its unit (nDCG three digits, Judged@K a percentage). */
const show = (name: string, v: number | null | undefined) => formatValue(v, metricDisplay(name).kind);
/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});
const raw = (v: number | null | undefined) => (v === undefined ? null : v);

/** How often n raters give the all-rater label, and the Kendall τ of the systems' order under n raters. */
export function LearningCurveTable({
  curve,
}: {
  curve: { raters: number; labelAgreement: number; kendallTau: number | null }[];
}) {
  return (
    <TableScroll label="Label learning curve">
      <table aria-label="Label learning curve">
        <thead>
          <tr>
            <th className="num">Raters</th>
            <th className="num">Same label as all raters</th>
            <th className="num">Kendall τ of system order</th>
          </tr>
        </thead>
        <tbody>
          {curve.map((c) => (
            <tr key={c.raters}>
              <td className="num">{formatCount(c.raters)}</td>
              <td className="num">{formatRate(c.labelAgreement)}</td>
              <td className="num">{formatNumber(c.kendallTau)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** nDCG@10 and Judged@10 of each system per subject, with intervals: sortable, groupable, downloadable. */
export function SubjectNdcgTable({ results }: { results: Json<CampaignResults> }) {
  return (
    <ClientTable
      caption="nDCG@10 by subject"
      fileName="expert-by-subject.csv"
      groupable={["subject", "system"]}
      data={results.systems.flatMap((s) =>
        Object.entries(s.subjects).map(([subject, g]) => ({
          subject,
          system: s.key,
          proposals: g.proposals,
          ndcg: raw(g.measures["nDCG@10"]?.value),
          lower: raw(g.measures["nDCG@10"]?.ci?.lower),
          upper: raw(g.measures["nDCG@10"]?.ci?.upper),
          judged: raw(g.measures["Judged@10"]?.value),
        })),
      )}
      columns={[
        { id: "subject", accessorKey: "subject", header: "Subject" },
        { id: "system", accessorKey: "system", header: "System" },
        { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
        { id: "ndcg", accessorKey: "ndcg", header: "nDCG@10", ...cellAs(formatNumber) },
        { id: "lower", accessorKey: "lower", header: "95% CI lower", ...cellAs(formatNumber) },
        { id: "upper", accessorKey: "upper", header: "95% CI upper", ...cellAs(formatNumber) },
        { id: "judged", accessorKey: "judged", header: "Judged@10", ...cellAs(formatRate) },
      ]}
    />
  );
}

/** nDCG@K (linear and exponential gain) and Judged@K per system, each with its interval. */
export function SystemResultsTable({ results, label }: { results: Json<CampaignResults>; label: string }) {
  const measures = results.ks.flatMap((k) => [`nDCG@${k}`, `nDCG(gain=exp)@${k}`, `Judged@${k}`]);
  return (
    <TableScroll label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            <th>System</th>
            <th className="num">Proposals</th>
            {measures.map((m) => (
              <th key={m} className="num">
                {metricDisplay(m).label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {results.systems.map((s) => (
            <tr key={s.key}>
              <th scope="row">{s.key}</th>
              <td className="num">{formatCount(s.overall.proposals)}</td>
              {measures.map((m) => (
                <td key={m} className="num">
                  {show(m, s.overall.measures[m].value)}
                  <div className="muted">
                    {s.overall.measures[m].ci ? formatCi(s.overall.measures[m].ci, (v) => show(m, v)) : ""}
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The paired comparison of the systems on nDCG@10, as one sentence. */
export function ComparisonSentence({ results }: { results: Json<CampaignResults> }) {
  const c = results.comparison;
  if (!c) return null;
  return (
    <p>
      Paired comparison on nDCG@10 ({c.queries} proposals{c.holm ? ", Holm-adjusted" : ""}):{" "}
      {c.pairs.map((p, i) => {
        const v = verdict(p.difference, p.ci, "higher");
        const pText = formatP(p.pAdjusted);
        return (
          <span key={`${p.a}-${p.b}`}>
            {i > 0 ? "; " : ""}
            {p.b} − {p.a} ={" "}
            <span className={`verdict verdict-${v}`}>{formatNumber(p.difference, { signed: true })}</span>{" "}
            (95% CI {formatCi(p.ci, (x) => formatNumber(x, { signed: true }))}, p{" "}
            {pText.startsWith("<") ? pText : `= ${pText}`}; {p.b}{" "}
            <span className={`verdict verdict-${v}`}>{v}</span>)
          </span>
        );
      })}
      .
    </p>
  );
}

type QueueFilter = "unresolved" | "adjudicated" | "all";

export type { QueueRow };

const filterLabels: Record<QueueFilter, string> = {
  unresolved: "Unresolved",
  adjudicated: "Adjudicated",
  all: "All",
};

/**
 * The admin's disagreement queue: pairs whose grades are two or more points apart, unresolved first
 * (adjudicated ones are set aside under their own filter with the final grade and note), a page at a time.
 * The filter and page live in the address (`?queue=…&page=…`) so the queue survives a reload.
 */
export function DisagreementQueue({
  show,
  page,
  pageCount,
  counts,
  rows,
}: {
  show: QueueFilter;
  page: number;
  pageCount: number;
  counts: Record<QueueFilter, number>;
  rows: QueueRow[];
}) {
  const at = (queue: QueueFilter, p = 1) => `?queue=${queue}&page=${p}#disagreements`;
  return (
    <section aria-labelledby="disagreements">
      <h2 id="disagreements">
        Disagreements ({formatCount(counts.unresolved)} unresolved, {formatCount(counts.adjudicated)}{" "}
        adjudicated)
      </h2>
      <nav className="admin-queue-filter" aria-label="Which disagreements">
        {(["unresolved", "adjudicated", "all"] as const).map((f) => (
          <Link key={f} to={at(f)} aria-current={f === show ? "page" : undefined} preventScrollReset>
            {filterLabels[f]} ({formatCount(counts[f])})
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <p className="muted">
          {counts.all === 0
            ? "No pair has grades two or more points apart."
            : `No ${show === "all" ? "" : `${show} `}disagreement${page > 1 ? " on this page" : ""}.`}
        </p>
      ) : (
        <TableScroll label="Disagreement queue">
          <table aria-label="Disagreement queue">
            <thead>
              <tr>
                <th>Proposal</th>
                <th>Candidate</th>
                <th>Grades and rationales</th>
                <th>Final grade</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <DisagreementRow key={p.itemId} pair={p} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pageCount > 1 ? (
        <LinkPager
          label="Disagreement pages"
          page={page}
          pageCount={pageCount}
          href={(p) => at(show, p)}
          preventScrollReset
        />
      ) : null}
    </section>
  );
}
