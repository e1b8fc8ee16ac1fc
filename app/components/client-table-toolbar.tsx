import type { GroupingState, Table } from "@tanstack/react-table";
import { tableCsv } from "./table-csv";

/** Saves what the table shows (see `tableCsv`) as a CSV file named `fileName`. */
function downloadTableCsv<T>(table: Table<T>, fileName: string) {
  const csv = tableCsv(table);
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The tools above a results table: the row filter (only when the rows fill more than a page), the
 * group-by choice (when some columns can group), the column chooser and the CSV download.
 */
export function ClientTableToolbar<T>({
  table,
  fileName,
  showFilter,
  filter,
  onFilter,
  groupable,
  grouping,
  onGrouping,
}: {
  table: Table<T>;
  fileName: string;
  showFilter: boolean;
  filter: string;
  onFilter: (filter: string) => void;
  groupable: string[];
  grouping: GroupingState;
  onGrouping: (grouping: GroupingState) => void;
}) {
  return (
    <div className="toolbar">
      {showFilter ? <RowFilter id={`${fileName}-filter`} filter={filter} onFilter={onFilter} /> : null}
      {groupable.length ? (
        <GroupBy
          id={`${fileName}-group`}
          table={table}
          groupable={groupable}
          grouping={grouping}
          onGrouping={onGrouping}
        />
      ) : null}
      <ColumnChooser table={table} />
      <button type="button" className="button-secondary" onClick={() => downloadTableCsv(table, fileName)}>
        Download CSV
      </button>
    </div>
  );
}

function RowFilter({ id, filter, onFilter }: { id: string; filter: string; onFilter: (f: string) => void }) {
  return (
    <div>
      <label htmlFor={id}>Filter rows</label>
      <input
        id={id}
        type="search"
        value={filter}
        onChange={(e) => onFilter(e.target.value)}
        placeholder="text in any column"
      />
    </div>
  );
}

function GroupBy<T>({
  id,
  table,
  groupable,
  grouping,
  onGrouping,
}: {
  id: string;
  table: Table<T>;
  groupable: string[];
  grouping: GroupingState;
  onGrouping: (grouping: GroupingState) => void;
}) {
  return (
    <div>
      <label htmlFor={id}>Group by</label>
      <select
        id={id}
        value={grouping[0] ?? ""}
        onChange={(e) => onGrouping(e.target.value ? [e.target.value] : [])}
      >
        <option value="">nothing</option>
        {groupable.map((g) => (
          <option key={g} value={g}>
            {String(table.getColumn(g)?.columnDef.header ?? g)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A checkbox per column; a hidden column is still searched by the filter. */
function ColumnChooser<T>({ table }: { table: Table<T> }) {
  return (
    <details>
      <summary>Columns</summary>
      {table.getAllLeafColumns().map((c) => (
        <label key={c.id} style={{ fontWeight: 400, display: "block" }}>
          <input type="checkbox" checked={c.getIsVisible()} onChange={c.getToggleVisibilityHandler()} />{" "}
          {String(c.columnDef.header ?? c.id)}
        </label>
      ))}
    </details>
  );
}
