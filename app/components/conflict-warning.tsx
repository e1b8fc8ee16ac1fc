/**
 * The convener's warning beside a candidate declared conflicted with the proposal (the conflicts
 * import): the list still shows them, as the system returned it, but never without this note.
 */
export function ConflictWarning({ reason }: { reason: string | null | undefined }) {
  if (reason === null || reason === undefined) return null;
  return (
    <p className="notice error conflict-warning">
      Conflict of interest with this proposal{reason ? `: ${reason}` : ""}. Check before adopting.
    </p>
  );
}
