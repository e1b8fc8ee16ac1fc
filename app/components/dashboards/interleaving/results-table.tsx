import type { InterleavingFigures } from "../../../../scripts/interleaving/figures";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatP, formatRate } from "~/utils/format";
import { VerdictLabel } from "../verdict";
import { CREDITS, ci, winRateVerdict } from "./verdict";

/** By each credit: sessions, wins of each system, ties, no preference, the win rate, p and the verdict. */
export function InterleavingResultsTable({
  figures,
  control,
  challenger,
}: {
  figures: Json<InterleavingFigures>;
  control: string;
  challenger: string;
}) {
  return (
    <TableScroll label="Interleaving results">
      <table aria-label="Interleaving results">
        <thead>
          <tr>
            <th>Credit</th>
            <th className="num">Sessions</th>
            <th className="num">Wins of {control} (control)</th>
            <th className="num">Wins of {challenger}</th>
            <th className="num">Ties</th>
            <th className="num">No preference</th>
            <th className="num">Win rate of {challenger} (95% CI)</th>
            <th className="num">p (sign test)</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {CREDITS.map(({ key, label }) => {
            const r = figures[key];
            return (
              <tr key={key} data-credit={key}>
                <th scope="row">{label}</th>
                <td className="num">{formatCount(r.sessions)}</td>
                <td className="num">{formatCount(r.wins[control] ?? 0)}</td>
                <td className="num">{formatCount(r.wins[challenger] ?? 0)}</td>
                <td className="num">{formatCount(r.ties)}</td>
                <td className="num">{formatCount(r.noPreference)}</td>
                <td className="num">
                  {formatRate(r.winRate)}
                  <div className="muted">{ci(r.ci)}</div>
                </td>
                <td className="num">{formatP(r.pValue)}</td>
                <td>
                  <VerdictLabel verdict={winRateVerdict(r)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
