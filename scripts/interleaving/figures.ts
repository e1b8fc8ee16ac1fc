import { interleavingResult, type CreditKind, type InterleavingResult } from "./results";
import type { SessionCredit } from "./credit";

/** A session's credit with the UTC day (YYYY-MM-DD) of its first event, for the day-by-day series. */
export type DatedCredit = SessionCredit & { day: string };

export interface InterleavingFiguresInput {
  sessions: DatedCredit[];
  control: string;
  challenger: string;
  B: number;
  seed: string;
}

/** The win rate and its interval as they stood at the end of one day (every session up to that day). */
export interface DailyWinRate {
  day: string;
  sessions: number;
  click: Pick<InterleavingResult, "winRate" | "ci">;
  adopt: Pick<InterleavingResult, "winRate" | "ci">;
}

export interface InterleavingFigures {
  click: InterleavingResult;
  adopt: InterleavingResult;
  daily: DailyWinRate[];
}

/**
 * An interleaving experiment's page figures: the result by click credit and by adoption credit (as
 * `assay interleave` computes them with the same B and seed), and the cumulative result at the end of
 * each day on which a session started. Each day's interval is its own bootstrap with the same seed.
 */
export function interleavingFigures({
  sessions,
  control,
  challenger,
  B,
  seed,
}: InterleavingFiguresInput): InterleavingFigures {
  const of = (list: readonly SessionCredit[], credit: CreditKind) =>
    interleavingResult(list, { control, challenger, credit, B, seed });
  const sorted = [...sessions].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const days = [...new Set(sorted.map((s) => s.day))];
  let upTo = 0;
  const daily = days.map((day) => {
    while (upTo < sorted.length && sorted[upTo].day <= day) upTo++;
    const list = sorted.slice(0, upTo);
    const pick = (r: InterleavingResult) => ({ winRate: r.winRate, ci: r.ci });
    return { day, sessions: list.length, click: pick(of(list, "click")), adopt: pick(of(list, "adopt")) };
  });
  return { click: of(sessions, "click"), adopt: of(sessions, "adopt"), daily };
}
