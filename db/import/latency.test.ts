import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "./index";
import { loadOfflineInput } from "../catalog/offline-input";

/** Prediction time per list and build figures per system (issue 24, the source's second and third criteria). */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const ok = async (entity: "proposals" | "candidates", text: string) =>
    expect((await importFile(t.db, "cli", entity, text, "csv")).ok).toBe(true);
  await ok("proposals", "external_id,title\nP-1,One\nP-2,Two\n");
  await ok("candidates", "external_id,name\nC-1,Ann\nC-2,Bo\n");
});
afterAll(() => t.drop());

const lists = () =>
  t.db.execute<{ proposal: string; latency: number | null }>(
    sql`select p.external_id proposal, l.latency_ms latency from ranked_lists l join proposals p on p.id = l.proposal_id order by 1`,
  );

describe("systems' build_seconds and memory_mb, lists' latency_ms", () => {
  it("stores them, a list's latency from whichever of its rows gives it, and leaves them empty when absent", async () => {
    const systems = "key,name,build_seconds,memory_mb\nS,System,12.5,2048\nT,Other,,\n";
    expect((await importFile(t.db, "cli", "systems", systems, "csv")).ok).toBe(true);
    const stored = await t.db.execute(sql`select key, build_seconds, memory_mb from systems order by key`);
    expect(stored).toEqual([
      { key: "S", build_seconds: 12.5, memory_mb: 2048 },
      { key: "T", build_seconds: null, memory_mb: null },
    ]);
    const text = "system,proposal,rank,candidate,latency_ms\nS,P-1,1,C-1,\nS,P-1,2,C-2,35.5\nS,P-2,1,C-2,\n";
    expect((await importFile(t.db, "cli", "lists", text, "csv")).ok).toBe(true);
    expect(await lists()).toEqual([
      { proposal: "P-1", latency: 35.5 },
      { proposal: "P-2", latency: null },
    ]);
    // The offline report reads them back by proposal and variant.
    const input = await loadOfflineInput(t.db, { systems: ["S"] });
    expect(input.systems[0]).toMatchObject({ buildSeconds: 12.5, memoryMb: 2048 });
    expect(input.systems[0].latencies).toEqual(new Map([["P-1", new Map([["default", 35.5]])]]));
  });

  it.each([
    ["a negative latency", "S,P-2,1,C-1,-3", 2, /latency_ms must be 0 or more/],
    ["a non-numeric latency", "S,P-2,1,C-1,fast", 2, /latency_ms must be a number/],
    ["two latencies for one list", "S,P-2,1,C-1,10\nS,P-2,2,C-2,11", 3, /latency_ms 11 differs from 10/],
  ])("refuses %s naming the row, writing nothing", async (_name, rows, line, message) => {
    const before = await lists();
    const result = await importFile(
      t.db,
      "cli",
      "lists",
      `system,proposal,rank,candidate,latency_ms\n${rows}\n`,
      "csv",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatchObject({ line, message: expect.stringMatching(message) });
    expect(await lists()).toEqual(before);
  });

  it("refuses a negative memory_mb naming the row", async () => {
    const result = await importFile(t.db, "cli", "systems", "key,memory_mb\nU,-1\n", "csv");
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors[0]).toMatchObject({
        line: 2,
        message: expect.stringMatching(/memory_mb must be 0 or more/),
      });
  });
});
