import { ClientTable } from "~/components/client-table";
import { RowHeaderTable } from "~/components/row-header-table";
import { formatCount, formatRate } from "~/utils/format";
import type { Report, System } from "./cells";

type Ks = Report["parameters"]["ks"];

/**
 * COI@K (the share of top-K slots held by a candidate conflicted with the proposal), the conflicted
 * slots, and possible leakage (profiles dated after their proposal), per system. Both describe the
 * lists as the systems returned them, whatever the exclusion setting.
 */
export function OfflineIntegrity({ report }: { report: Report }) {
  const systems = report.systems.filter((s) => s.integrity);
  if (systems.length === 0 || !report.conflicts) return null;
  const { ks } = report.parameters;
  return (
    <>
      <h2>Conflicts of interest and leakage</h2>
      <p className="muted">
        {formatCount(report.conflicts.declared)} declared conflicts. COI@K is the share of the top K slots
        held by a candidate conflicted with the proposal, in the lists as the systems returned them
        {report.parameters.excludeConflicts ? "; the figures above use the lists without them" : ""}. A
        profile dated after its proposal may describe the review or its outcome: possible leakage.
      </p>
      <h3>COI@K by system</h3>
      <ConflictShareTable systems={systems} ks={ks} />
      <h3>Top-K slots holding a profile dated after the proposal</h3>
      <LeakyShareTable systems={systems} ks={ks} />
      <ConflictedSlots systems={systems} />
      <LeakedProfiles systems={systems} />
    </>
  );
}

/** COI@K per system and K, with the conflicted slots out of all. */
function ConflictShareTable({ systems, ks }: { systems: System[]; ks: Ks }) {
  return (
    <RowHeaderTable
      label="COI@K by system"
      corner="System"
      columns={ks.map((k) => ({ key: String(k), header: `COI@${k}` }))}
      rows={systems}
      rowKey={(s) => s.key}
      rowHeader={(s) => s.name}
      cells={(s) =>
        s.integrity.conflicts.map((c) => (
          <td key={c.k} className="num">
            {formatRate(c.share)}
            <div className="muted">
              {formatCount(c.conflicted)} of {formatCount(c.slots)}
            </div>
          </td>
        ))
      }
    />
  );
}

/** The top-K slots holding a profile dated after its proposal, per system and K. */
function LeakyShareTable({ systems, ks }: { systems: System[]; ks: Ks }) {
  return (
    <RowHeaderTable
      label="Top-K slots holding a profile dated after the proposal, by system"
      corner="System"
      columns={ks.map((k) => ({ key: String(k), header: `Leaky slots @${k}` }))}
      rows={systems}
      rowKey={(s) => s.key}
      rowHeader={(s) => s.name}
      cells={(s) =>
        s.integrity.leakage.map((l) => (
          <td
            key={l.k}
            className="num"
            title={`${l.flagged} of ${l.checked} slots with both dates; ${l.proposals} proposals`}
          >
            {formatCount(l.flagged)}
            <div className="muted">
              of {formatCount(l.checked)} dated · {formatCount(l.proposals)} proposals
            </div>
          </td>
        ))
      }
    />
  );
}

/** Every conflicted candidate in a system's list, with its rank and the reason for the conflict. */
function ConflictedSlots({ systems }: { systems: System[] }) {
  return (
    <ClientTable
      caption="Conflicted slots"
      fileName="offline-conflicted-slots.csv"
      groupable={["system"]}
      pageSize={10}
      data={systems.flatMap((s) =>
        s.integrity.conflictedSlots.map((c) => ({
          system: s.name,
          proposal: c.proposal,
          rank: c.rank,
          candidate: c.candidate,
          reason: c.reason,
        })),
      )}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "proposal", accessorKey: "proposal", header: "Proposal" },
        { id: "rank", accessorKey: "rank", header: "Rank" },
        { id: "candidate", accessorKey: "candidate", header: "Candidate" },
        { id: "reason", accessorKey: "reason", header: "Reason" },
      ]}
    />
  );
}

/** Every listed profile dated after its proposal: possible leakage of the review's outcome. */
function LeakedProfiles({ systems }: { systems: System[] }) {
  return (
    <ClientTable
      caption="Profiles dated after their proposal"
      fileName="offline-leakage.csv"
      groupable={["system"]}
      pageSize={10}
      data={systems.flatMap((s) =>
        s.integrity.leakedSlots.map((l) => ({
          system: s.name,
          proposal: l.proposal,
          proposalDate: l.proposalDate,
          rank: l.rank,
          candidate: l.candidate,
          profileDate: l.profileDate,
        })),
      )}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "proposal", accessorKey: "proposal", header: "Proposal" },
        { id: "proposalDate", accessorKey: "proposalDate", header: "Proposal date" },
        { id: "rank", accessorKey: "rank", header: "Rank" },
        { id: "candidate", accessorKey: "candidate", header: "Candidate" },
        { id: "profileDate", accessorKey: "profileDate", header: "Profile date" },
      ]}
    />
  );
}
