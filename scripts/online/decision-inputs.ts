/**
 * What `assay online --cuped --slice … --guardrail …` reads from the events before any statistic: the
 * analysed experiment's per-unit totals, its units' pre-period sums, the slices' per-unit totals and the
 * guardrails' sessions, all in one pass over the events (in file order), each event's time read once.
 * The same pass serves one thread (every event) and each of two threads (the events of its own units).
 */
import { addHistoryEvent, chooseExperiment, prePeriodFrom } from "./decide";
import type { OnlineEvent } from "./events";
import type { GuardrailSession } from "./guardrail-sessions";
import { isoTime, UnitTotalsBuilder, type StreamTotals, type UnitTotals } from "./report";
import { sliceBySession } from "./slices";

/** Each event's time (ms), each experiment's first event time, and the earliest time of all. */
export interface EventTimes {
  times: Float64Array;
  starts: Map<string, number>;
  earliest: number;
}

export function eventTimes(events: readonly OnlineEvent[]): EventTimes {
  const times = new Float64Array(events.length);
  const starts = new Map<string, number>();
  let earliest = Infinity;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = (times[i] = isoTime(e.at));
    if (t < earliest) earliest = t;
    const s = starts.get(e.experiment);
    if (s === undefined || t < s) starts.set(e.experiment, t);
  }
  return { times, starts, earliest };
}

/** The analysed experiment, its start and the pre-period's first moment (null without CUPED). */
export interface DecisionPlan {
  experiment: string;
  experiments: string[];
  start: number;
  from: number | null;
}

/**
 * The plan from the experiments' starts; throws messages naming `experiment` or `pre-period days`
 * (decide.ts) when the experiment is not in the file or the pre-period reaches before the history.
 */
export function decisionPlan(
  starts: ReadonlyMap<string, number>,
  earliest: number,
  o: { experiment?: string; prePeriodDays: number | null },
): DecisionPlan {
  const chosen = chooseExperiment(starts, o.experiment);
  const from = o.prePeriodDays === null ? null : prePeriodFrom(chosen.start, earliest, o.prePeriodDays);
  return { ...chosen, from };
}

export interface DecisionInputOptions {
  /** Proposal id to subject, for the slices; null when no slices are asked for. */
  subjects: ReadonlyMap<string, string> | null;
  /** Collect the guardrails' sessions, counting adopted conflicts from `conflicts` when known. */
  guardrails?: { conflicts: ReadonlySet<string> | null };
}

export interface DecisionInputs {
  totals: StreamTotals;
  /** Units' sums over their history sessions in the pre-period; null without CUPED. */
  pre: UnitTotals[] | null;
  slices: Map<string, UnitTotals[]> | null;
  guardrailSessions: GuardrailSession[] | null;
}

/**
 * One pass: the analysed experiment's events build its totals (and, when asked, the sessions the slices
 * and guardrails read: slices sum per-session rows, so no second pass over the events), the other
 * experiments' events inside [from, start) build the pre-period's.
 */
export function decisionInputs(
  events: readonly OnlineEvent[],
  times: ArrayLike<number>,
  plan: Pick<DecisionPlan, "experiment" | "start" | "from">,
  o: DecisionInputOptions,
): DecisionInputs {
  const builder = new UnitTotalsBuilder({
    ...(o.guardrails ? { guardrails: o.guardrails } : {}),
    sessions: o.subjects !== null,
  });
  const history = plan.from === null ? null : new UnitTotalsBuilder();
  const { experiment, start, from } = plan;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = times[i];
    if (e.experiment === experiment) builder.add(e, t);
    else if (history && t >= from! && t < start) addHistoryEvent(history, e, t);
  }
  const totals = builder.build();
  const rows = builder.sessionRows;
  return {
    totals,
    pre: history ? history.build().units : null,
    slices: o.subjects
      ? sliceBySession(
          rows,
          rows.map((r) => o.subjects!.get(r.proposal) ?? null),
        )
      : null,
    guardrailSessions: o.guardrails ? builder.guardrailSessions : null,
  };
}

/**
 * The inputs of parts holding disjoint units (two threads' halves) as one: units in one order whatever
 * part they came from (mergeTotals), each slice's units sorted as `sliceBySession` sorts them.
 */
export function mergeSlices(parts: readonly Map<string, UnitTotals[]>[]): Map<string, UnitTotals[]> {
  const merged = new Map<string, UnitTotals[]>();
  for (const part of parts)
    for (const [slice, units] of part) merged.set(slice, [...(merged.get(slice) ?? []), ...units]);
  const byUnit = (a: UnitTotals, b: UnitTotals) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0);
  for (const units of merged.values()) units.sort(byUnit);
  return merged;
}
