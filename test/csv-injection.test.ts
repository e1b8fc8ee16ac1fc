import {
  createTable,
  getCoreRowModel,
  getFilteredRowModel,
  getGroupedRowModel,
  getSortedRowModel,
  type ColumnDef,
} from "@tanstack/react-table";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { createTestDatabase, type TestDatabase } from "./database";
import { seedDemo } from "../scripts/demo/seed";
import { exportCampaign } from "../db/campaigns/campaign-data";
import { createSnapshot, snapshotCsv } from "../db/snapshots/snapshots";
import { csv } from "../scripts/cli/output";
import { tableCsv } from "../app/components/table-csv";

/**
 * Every CSV Assay writes (campaign export, snapshot export, CLI --csv, a results table's download) must
 * leave no cell that a spreadsheet would run as a formula (OWASP "CSV injection"). The payloads go
 * where users type text: rationales, subject names, system keys, proposal titles.
 */
const payloads = [
  '=HYPERLINK("http://evil.example","x")',
  "=cmd|' /C calc'!A0",
  "=2+5+cmd|' /C calc'!A0",
  "+1",
  '+HYPERLINK("http://evil.example")',
  "-1+1",
  "-2",
  "@SUM(1)",
  "@A1",
  "\t=1+1",
  "\r=1+1",
  "=1+1\n=2+2",
  "=1+1\r\n",
];

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

function cellsOf(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** Cells a spreadsheet would evaluate: they start with a formula character and are not a plain number. */
const runnable = (rows: string[][]) => rows.flat().filter((c) => FORMULA_START.test(c) && !NUMBER.test(c));

let t: TestDatabase;
let campaignId = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 24, candidates: 300, seed: "csv-injection" });
  [{ id: campaignId }] = await t.db.execute<{ id: number }>(sql`select id from campaigns limit 1`);
  const rated = await t.db.execute<{
    assignment: number;
    item: number;
  }>(sql`select r.assignment_id as assignment, r.item_id as item
    from ratings r join campaign_assignments a on a.id = r.assignment_id
    where a.campaign_id = ${campaignId} order by 1, 2 limit ${payloads.length}`);
  expect(rated.length).toBe(payloads.length);
  for (const [i, r] of rated.entries()) {
    await t.db.execute(
      sql`update ratings set rationale = ${payloads[i]} where assignment_id = ${r.assignment} and item_id = ${r.item}`,
    );
  }
  const subjectIds = await t.db.execute<{ id: number }>(sql`select id from subjects order by id`);
  for (const [i, { id }] of subjectIds.entries())
    await t.db.execute(sql`update subjects set name = ${payloads[i % payloads.length]} where id = ${id}`);
  await t.db.execute(sql`update systems set key = ${payloads[0]} where key = 'baseline'`);
});
afterAll(() => t.drop());

describe("CSV injection", () => {
  it("the campaign's per-rater CSV escapes every rationale payload", async () => {
    const rows = cellsOf((await exportCampaign(t.db, campaignId, "csv")).body);
    expect(runnable(rows)).toEqual([]);
    const rationales = rows.slice(1).map((r) => r[4]);
    for (const p of payloads) expect(rationales).toContain(`'${p}`);
    // position and time stay numbers
    expect(rows.slice(1).filter((r) => !(NUMBER.test(r[5]) && NUMBER.test(r[6])))).toEqual([]);
  });

  it("the snapshot CSV escapes subject names and system keys, and keeps negative numbers as numbers", async () => {
    const subjects = (await t.db.execute<{ name: string }>(sql`select distinct name from subjects`)).map(
      (s) => s.name,
    );
    const offline = await createSnapshot(t.db, "cli", { kind: "offline", ks: [10], B: 100, seed: "s" });
    const online = await createSnapshot(t.db, "cli", {
      kind: "online",
      experiment: "reviewer-ranker-v2",
      B: 100,
    });
    const rows = [...cellsOf(snapshotCsv(offline)), ...cellsOf(snapshotCsv(online))];
    expect(runnable(rows)).toEqual([]);
    for (const name of subjects) expect(rows.map((r) => r[1])).toContain(`'${name}`);
    expect(rows.map((r) => r[0])).toContain(`'${payloads[0]}`);
    const negatives = rows.flat().filter((c) => c.startsWith("-"));
    expect(negatives.length).toBeGreaterThan(0);
    expect(negatives.every((c) => NUMBER.test(c))).toBe(true);
  });

  it("CLI --csv output escapes text cells and leaves numbers alone", () => {
    const rows = cellsOf(
      csv(
        ["system", "group", "value"],
        payloads.map((p, i) => [p, `group ${i}`, -0.25 * i]),
      ),
    );
    expect(runnable(rows)).toEqual([]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(payloads.map((p) => `'${p}`));
    expect(rows.slice(1).map((r) => r[2])).toEqual(payloads.map((_, i) => String(-0.25 * i)));
  });

  it("a results table's download escapes proposal titles and names, grouped or not", () => {
    type Row = { title: string; name: string; delta: number };
    const data: Row[] = payloads.map((p, i) => ({
      title: p,
      name: payloads[(i + 1) % payloads.length],
      delta: -1.5 * (i + 1),
    }));
    const columns: ColumnDef<Row, unknown>[] = [
      { id: "title", header: "Title", accessorKey: "title" },
      { id: "name", header: "=Name", accessorKey: "name" },
      { id: "delta", header: "Δ", accessorKey: "delta" },
    ];
    for (const grouping of [[], ["name"]]) {
      const table = createTable<Row>({
        data,
        columns,
        state: {},
        onStateChange: () => {},
        renderFallbackValue: null,
        getCoreRowModel: getCoreRowModel(),
        getFilteredRowModel: getFilteredRowModel(),
        getSortedRowModel: getSortedRowModel(),
        getGroupedRowModel: getGroupedRowModel(),
      });
      table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, grouping } }));
      const rows = cellsOf(tableCsv(table));
      expect(runnable(rows)).toEqual([]);
      // A grouped column moves to the front, as on screen.
      expect([...rows[0]].sort()).toEqual(["'=Name", "Title", "Δ"]);
      const column = (header: string) => rows.slice(1).map((r) => r[rows[0].indexOf(header)]);
      expect(column("Title").sort()).toEqual(payloads.map((p) => `'${p}`).sort());
      expect(
        column("Δ")
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual(data.map((d) => d.delta).sort((a, b) => a - b));
    }
  });
});
