import { useEffect } from "react";
import type { Table } from "@tanstack/react-table";

/**
 * Printed, a paged table shows every row, not the page on screen: the page size grows to the row count
 * before printing and returns to what it was after.
 */
export function usePrintEveryRow<T>(table: Table<T>, rowCount: number, pageSize: number) {
  useEffect(() => {
    let onScreen = pageSize;
    const before = () => {
      onScreen = table.getState().pagination.pageSize;
      table.setPageSize(Math.max(rowCount, 1));
    };
    const after = () => table.setPageSize(onScreen);
    window.addEventListener("beforeprint", before);
    window.addEventListener("afterprint", after);
    return () => {
      window.removeEventListener("beforeprint", before);
      window.removeEventListener("afterprint", after);
    };
  }, [table, rowCount, pageSize]);
}
