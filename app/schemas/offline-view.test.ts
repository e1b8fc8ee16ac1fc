import { parseOfflineView } from "./offline-view";

describe("the offline report's view settings from a query string", () => {
  it("reads the committee cap, unset when empty, and refuses one that is not a whole number of at least 1", () => {
    const view = (query: string) => parseOfflineView(new URLSearchParams(query));
    expect(view("maxCommittee=5&stratify=subject")).toEqual({
      view: { excludeConflicts: false, stratify: "subject", from: null, to: null, maxCommittee: 5 },
    });
    expect(view("maxCommittee=")).toMatchObject({ view: { maxCommittee: null } });
    expect(view("maxCommittee=2.5")).toEqual({ error: "The committee cap must be a whole number." });
    expect(view("maxCommittee=five")).toEqual({ error: "The committee cap must be a whole number." });
    expect(view("maxCommittee=0")).toEqual({ error: "The committee cap must be 1 or more." });
  });
});
