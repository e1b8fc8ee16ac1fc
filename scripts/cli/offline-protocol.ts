import type { OfflineReport, SystemOffline } from "../offline/report";
import { fmt, table, type Cell } from "./output";

/** A protocol system's lines: the protocol, what it dropped, given members returned, each fold and the spread. */
export function printProtocol(s: SystemOffline) {
  const p = s.protocol;
  if (!p) return;
  console.log(
    `Protocol ${p.protocol} (seed ${p.seed}): each list measured against its fold's measurement set, the given members removed (ranks closed up); ${p.folds.length} fold${p.folds.length === 1 ? "" : "s"}.`,
  );
  if (p.dropped.length)
    console.log(
      `Dropped ${p.dropped.length} proposal${p.dropped.length === 1 ? "" : "s"} whose committee is too small: ${p.dropped
        .slice(0, 20)
        .map((d) => `${d.proposal} (${d.members})`)
        .join(", ")}${p.dropped.length > 20 ? ", …" : ""}.`,
    );
  if (p.unmatchedLists) console.log(`${p.unmatchedLists} lists name no fold (variant fold-N): not measured.`);
  if (p.givenReturned.lists)
    console.log(
      `${p.givenReturned.lists} lists returned given members (${p.givenReturned.slots} slots): removed before measuring, e.g. ${p.givenReturned.examples
        .slice(0, 3)
        .map((e) => `${e.proposal}/${e.variant}: ${e.candidates.join(" ")}`)
        .join("; ")}.`,
    );
  const measures = Object.keys(p.spread);
  console.log(
    table(
      ["fold", "proposals", ...measures],
      [
        ...p.perFold.map((f) => [`fold-${f.fold}`, f.proposals, ...measures.map((m) => f.measures[m])]),
        ["mean", null, ...measures.map((m) => p.spread[m].mean)],
        ["sd across folds", null, ...measures.map((m) => p.spread[m].sd)],
      ],
    ),
  );
  console.log(`(${measures.map((m) => `${m} ${fmt(p.spread[m].min)}–${fmt(p.spread[m].max)}`).join(", ")})`);
}

/** CSV rows of the protocol section: each fold's figures and the across-fold mean and SD. */
export function protocolCsvRows(s: SystemOffline): Cell[][] {
  const p = s.protocol;
  if (!p) return [];
  const rows: Cell[][] = [];
  for (const f of p.perFold)
    for (const [m, v] of Object.entries(f.measures))
      rows.push([s.key, `${p.protocol} fold-${f.fold}`, f.proposals, m, v, null, null]);
  for (const [m, x] of Object.entries(p.spread)) {
    rows.push([s.key, `${p.protocol} folds mean`, p.perFold.length, m, x.mean, x.min, x.max]);
    rows.push([s.key, `${p.protocol} folds sd`, p.perFold.length, m, x.sd, null, null]);
  }
  rows.push([
    s.key,
    `${p.protocol} dropped`,
    p.dropped.length,
    "DroppedProposals",
    p.dropped.length,
    null,
    null,
  ]);
  rows.push([
    s.key,
    `${p.protocol} given returned`,
    p.givenReturned.lists,
    "GivenReturnedSlots",
    p.givenReturned.slots,
    null,
    null,
  ]);
  return rows;
}

export type { OfflineReport };
