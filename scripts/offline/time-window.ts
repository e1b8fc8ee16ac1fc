/**
 * The evaluation window and profile leakage (issue #13, tier 1 item 6). Dates are ISO calendar dates
 * (YYYY-MM-DD), so comparing the strings compares the dates.
 */
import type { ProposalList } from "./conflicts";

export interface EvaluationWindow {
  from: string | null;
  to: string | null;
}

/**
 * Whether a proposal dated `date` is in the window (both bounds inclusive). With no bound every
 * proposal is in; with a bound an undated proposal is out, since it cannot be placed in time.
 */
export function inWindow(date: string | null | undefined, window: EvaluationWindow): boolean {
  if (!window.from && !window.to) return true;
  if (!date) return false;
  return (!window.from || date >= window.from) && (!window.to || date <= window.to);
}

export interface LeakageAtK {
  k: number;
  /** Top-K slots of dated proposals whose candidate has a profile date: the slots that can be checked. */
  checked: number;
  /** Slots holding a candidate whose profile is dated after the proposal: possible leakage. */
  flagged: number;
  share: number | null;
  /** Proposals with at least one flagged slot in their top K. */
  proposals: number;
}

export interface LeakedSlot {
  proposal: string;
  candidate: string;
  rank: number;
  proposalDate: string;
  profileDate: string;
}

/**
 * For each K: how many top-K slots hold a candidate whose profile was written after the proposal
 * (the profile may describe the review itself, or work the proposal led to). Slots without both
 * dates cannot be checked and are not counted.
 */
export function leakageAtK(
  lists: readonly ProposalList[],
  proposalDates: ReadonlyMap<string, string>,
  profileDates: ReadonlyMap<string, string>,
  ks: readonly number[],
): LeakageAtK[] {
  return ks.map((k) => {
    let checked = 0;
    let flagged = 0;
    let proposals = 0;
    for (const l of lists) {
      const date = proposalDates.get(l.proposal);
      if (!date) continue;
      let any = false;
      for (let i = 0; i < Math.min(k, l.items.length); i++) {
        const profile = profileDates.get(l.items[i]);
        if (!profile) continue;
        checked++;
        if (profile > date) {
          flagged++;
          any = true;
        }
      }
      if (any) proposals++;
    }
    return { k, checked, flagged, share: checked ? flagged / checked : null, proposals };
  });
}

/** Every slot at rank ≤ depth whose candidate's profile is dated after the proposal. */
export function leakedSlots(
  lists: readonly ProposalList[],
  proposalDates: ReadonlyMap<string, string>,
  profileDates: ReadonlyMap<string, string>,
  depth: number,
): LeakedSlot[] {
  const out: LeakedSlot[] = [];
  for (const l of lists) {
    const proposalDate = proposalDates.get(l.proposal);
    if (!proposalDate) continue;
    l.items.slice(0, depth).forEach((candidate, i) => {
      const profileDate = profileDates.get(candidate);
      if (profileDate && profileDate > proposalDate)
        out.push({ proposal: l.proposal, candidate, rank: i + 1, proposalDate, profileDate });
    });
  }
  return out;
}
