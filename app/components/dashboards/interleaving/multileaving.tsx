import type { MultileavingResult, PairPreference } from "../../../../scripts/interleaving/multileave-results";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { RowHeaderTable } from "~/components/row-header-table";
import { formatCount, formatNumber, formatP, formatRate, plural } from "~/utils/format";
import { CREDITS, ci } from "./verdict";

type Figures = Json<{ click: MultileavingResult; adopt: MultileavingResult }>;
type Pair = Json<PairPreference>;

/**
 * A pair whose share's interval is clear of ½ and whose sign test is below 0.05 is a preference the data
 * establish (with a handful of conveners the bootstrap interval alone can be degenerate: one session, 100%).
 */
const established = (p: Pair) =>
  p.ci !== null && (p.ci[0] > 0.5 || p.ci[1] < 0.5) && p.pValue !== null && p.pValue < 0.05;

/** One sentence per credit: the order of the systems, and which pairwise preferences are established. */
export function multileavingSentence(r: Json<MultileavingResult>, noun: string): string {
  const order = r.ranking.map((s) => s.system).join(" > ");
  const clear = r.pairs.filter((p) => established(p) && p.share! > 0.5);
  const settled = clear.length
    ? `established (95% interval clear of 50%, sign test p < 0.05): ${clear.map((p) => `${p.system} over ${p.other}`).join(", ")}`
    : "no pairwise preference is established yet";
  return `By ${noun}, the systems rank ${order}; ${settled}.`;
}

function Matrix({ result, label }: { result: Json<MultileavingResult>; label: string }) {
  const cell = (row: string, column: string) =>
    result.pairs.find((p) => p.system === row && p.other === column);
  return (
    <RowHeaderTable
      label={label}
      className="preference-matrix"
      corner="Preferred ↓ over →"
      columns={result.systems.map((s) => ({ key: s, header: s }))}
      rows={result.systems}
      rowKey={(row) => row}
      rowHeader={(row) => row}
      rowData={(row) => ({ "data-system": row })}
      cells={(row) =>
        result.systems.map((column) => {
          const p = cell(row, column);
          if (!p)
            return (
              <td key={column} className="num muted">
                —
              </td>
            );
          return (
            <td key={column} className="num" data-other={column}>
              {established(p) ? <strong>{formatRate(p.share)}</strong> : formatRate(p.share)}
              <div className="muted">{ci(p.ci)}</div>
              <div className="muted">
                {formatCount(p.wins)}:{formatCount(p.losses)}, p {formatP(p.pValue)}
              </div>
            </td>
          );
        })
      }
    />
  );
}

function Ranking({ result, label }: { result: Json<MultileavingResult>; label: string }) {
  return (
    <TableScroll label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            <th className="num">Rank</th>
            <th>System</th>
            <th className="num">Copeland score</th>
            <th className="num">Mean share</th>
          </tr>
        </thead>
        <tbody>
          {result.ranking.map((s) => (
            <tr key={s.system} data-system={s.system}>
              <td className="num">{s.rank}</td>
              <th scope="row">{s.system}</th>
              <td className="num">{formatNumber(s.copeland, { signed: true })}</td>
              <td className="num">{formatRate(s.meanShare)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A multileaved experiment's results (team-draft multileaving, Schuth et al. 2014): by click and by
 * adoption credit, the pairwise preference matrix (each cell the share of sessions preferring the row's
 * system over the column's among those preferring either, its 95% interval over conveners, wins:losses
 * and the sign test p) and the systems ranked by Copeland score.
 */
export function MultileavingDashboard({ figures }: { figures: Figures }) {
  return (
    <>
      <p className="notice" role="status" id="interleaving-verdict">
        {CREDITS.map((c) => multileavingSentence(figures[c.key], c.noun)).join(" ")}
      </p>
      {CREDITS.map(({ key, label }) => {
        const r = figures[key];
        return (
          <section key={key} data-credit={key}>
            <h2>{label}</h2>
            <p className="muted">
              {plural(r.sessions, "session")}, {formatCount(r.noPreference)} without any credit.
            </p>
            <div className="side-by-side">
              <Matrix result={r} label={`Preference matrix, ${label.toLowerCase()}`} />
              <Ranking result={r} label={`Ranking, ${label.toLowerCase()}`} />
            </div>
          </section>
        );
      })}
      <p className="muted">
        Each cell: the share of sessions in which the row&apos;s system earned more credit than the
        column&apos;s, among the sessions in which either earned more (ties left out); 95% percentile
        bootstrap interval over conveners; wins:losses and the two-sided sign test p. Bold: the interval is
        clear of 50% and p &lt; 0.05. Copeland score: pairs won minus pairs lost; ties in it are broken by the
        mean share.
      </p>
    </>
  );
}
