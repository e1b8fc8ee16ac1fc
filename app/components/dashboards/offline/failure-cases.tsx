import { ClientTable } from "~/components/client-table";
import { IdList } from "~/components/id-list";
import type { Report } from "./cells";

const ids = (c: { getValue: () => unknown }) => <IdList text={c.getValue() as string} />;

/** Proposals a system missed in its top K: the gold members beside what it ranked first. */
export function FailureCases({ report }: { report: Report }) {
  return (
    <>
      <p className="muted">
        Proposals with no committee member in a system's top {report.parameters.failureK}: the gold members
        beside what the system ranked first.
      </p>
      <ClientTable
        caption="Failure cases"
        fileName="offline-failures.csv"
        groupable={["system"]}
        pageSize={10}
        data={report.systems.flatMap((s) =>
          s.failures.map((f) => ({
            system: s.name,
            proposal: f.proposal,
            title: f.title ?? "",
            gold: f.gold.join(", "),
            top: f.top.slice(0, 10).join(", "),
            conflicted: (f.conflicted ?? []).map((c) => `${c.candidate} (#${c.rank})`).join(", "),
          })),
        )}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "proposal", accessorKey: "proposal", header: "Proposal" },
          { id: "title", accessorKey: "title", header: "Title" },
          { id: "gold", accessorKey: "gold", header: "Committee (gold)", cell: ids },
          { id: "top", accessorKey: "top", header: "System's top 10", cell: ids },
          { id: "conflicted", accessorKey: "conflicted", header: "Conflicted in top 10", cell: ids },
        ]}
      />
    </>
  );
}
