import type { OfflineView } from "../../scripts/offline/view";

/**
 * The offline report's view controls for its GET form: the evaluation window over proposal dates, a cap
 * on the committee size (larger ones dropped, as multi-winner contracts are), a bootstrap stratified by
 * subject, and the lists without conflicted candidates.
 */
export function OfflineViewFields({ view }: { view: OfflineView }) {
  return (
    <>
      <div>
        <label htmlFor="from">Proposals from</label>
        <input id="from" name="from" type="date" defaultValue={view.from ?? ""} />
      </div>
      <div>
        <label htmlFor="to">Proposals to</label>
        <input id="to" name="to" type="date" defaultValue={view.to ?? ""} />
      </div>
      <div>
        <label htmlFor="maxCommittee">Largest committee</label>
        <input
          id="maxCommittee"
          name="maxCommittee"
          type="number"
          min={1}
          step={1}
          placeholder="any size"
          defaultValue={view.maxCommittee ?? ""}
        />
      </div>
      <div>
        <label htmlFor="stratify">Resample proposals</label>
        <select id="stratify" name="stratify" defaultValue={view.stratify ?? ""}>
          <option value="">Over all proposals</option>
          <option value="subject">Within each subject</option>
        </select>
      </div>
      <div>
        <input
          id="excludeConflicts"
          name="excludeConflicts"
          type="checkbox"
          defaultChecked={view.excludeConflicts}
        />{" "}
        <label htmlFor="excludeConflicts" style={{ display: "inline" }}>
          Without conflicted candidates
        </label>
      </div>
    </>
  );
}
