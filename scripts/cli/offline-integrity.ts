import type { OfflineReport, SystemOffline } from "../offline/report";
import { fmt, table, type Cell } from "./output";

const percent = (share: number | null) => (share === null ? "—" : `${fmt(share * 100, 1)}%`);

/**
 * The integrity lines of `assay offline`: without a system, how the report looked at the data
 * (window, stratification, conflicts removed); with one, its COI@K, conflicted slots and leakage.
 */
export function printIntegrity(report: OfflineReport, system?: SystemOffline) {
  const p = report.parameters;
  if (!system) {
    const w = p.window;
    const window =
      w.from || w.to
        ? `proposals dated ${w.from ?? "…"} to ${w.to ?? "…"} (${w.proposals} in the window; undated ones left out)`
        : "all proposals (no date window)";
    console.log(
      `Evaluated: ${window}; bootstrap ${p.stratify ? "stratified by subject (each subject's size kept)" : "over all proposals"}; ` +
        `${p.excludeConflicts ? "conflicted candidates removed from the lists (ranks closed up)" : "lists as returned"}; ${report.conflicts.declared} declared conflicts.\n`,
    );
    return;
  }
  const i = system.integrity;
  console.log(
    table(
      [
        "K",
        "COI@K",
        "conflicted slots",
        "profiles after proposal",
        "of checkable slots",
        "proposals flagged",
      ],
      i.conflicts.map((c, j) => [
        c.k,
        percent(c.share),
        c.conflicted,
        i.leakage[j].flagged,
        i.leakage[j].checked,
        i.leakage[j].proposals,
      ]),
    ),
  );
  if (i.conflictedSlots.length) {
    const shown = i.conflictedSlots
      .slice(0, 5)
      .map((c) => `${c.proposal} #${c.rank} ${c.candidate}${c.reason ? ` (${c.reason})` : ""}`);
    console.log(
      `Conflicted slots (lists as returned): ${i.conflictedSlots.length}, e.g. ${shown.join(", ")}.`,
    );
  }
  if (i.leakedSlots.length) {
    const shown = i.leakedSlots
      .slice(0, 3)
      .map(
        (l) =>
          `${l.proposal} #${l.rank} ${l.candidate} (profile ${l.profileDate}, proposal ${l.proposalDate})`,
      );
    console.log(
      `Possible leakage: ${i.leakedSlots.length} slots hold a profile dated after its proposal, e.g. ${shown.join(", ")}.`,
    );
  }
  console.log("");
}

/** CSV rows (system, group, proposals, measure, value, ci_lower, ci_upper) for COI@K and the leakage share per K. */
export function integrityCsvRows(system: SystemOffline): Cell[][] {
  return [
    ...system.integrity.conflicts.map((c): Cell[] => [
      system.key,
      "overall",
      system.proposals,
      `COI@${c.k}`,
      c.share,
      null,
      null,
    ]),
    ...system.integrity.leakage.map((l): Cell[] => [
      system.key,
      "overall",
      system.proposals,
      `Leakage@${l.k}`,
      l.share,
      null,
      null,
    ]),
  ];
}
