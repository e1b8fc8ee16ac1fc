import { RESULT_KINDS } from "../../inputs/result-settings";
import type { Command } from "commander";
import {
  createSnapshot,
  getSnapshot,
  listSnapshots,
  snapshotCsv,
  snapshotDocument,
  SnapshotError,
} from "../../../db/snapshots/snapshots";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { table } from "../output";
import { cutoffList, recordId, wholeNumber } from "../options";
import { MAX_ID, toId } from "../../inputs/ids";
import { offlineViewSchema } from "../../offline/view";

const fail = (error: unknown): never => {
  if (error instanceof SnapshotError) throw new CliError(error.message.replace(/\.$/, "") + ".");
  throw error;
};

export function registerSnapshot(program: Command) {
  const snapshot = program
    .command("snapshot")
    .description("immutable snapshots of results: create, list, export");
  registerCreate(snapshot);
  registerList(snapshot);
  registerExport(snapshot);
}

interface CreateOptions {
  kind: string;
  campaign?: number;
  experiment?: string;
  k?: number[];
  bootstrap: number;
  seed: string;
  excludeConflicts?: boolean;
  stratify?: string;
  from?: string;
  to?: string;
  maxCommittee?: number;
}

function registerCreate(snapshot: Command) {
  snapshot
    .command("create")
    .description("compute a result and freeze it with its parameters, data window and sha256")
    .requiredOption("--kind <kind>", "offline, expert, online or clicks")
    .option("--campaign <id>", "the campaign (expert)", recordId)
    .option("--experiment <key>", "the experiment (online, clicks)")
    .option("--k <list>", "cutoffs", cutoffList)
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "bootstrap seed", DEFAULT_SEED)
    .option("--exclude-conflicts", "offline: lists without conflicted candidates (ranks closed up)")
    .option("--stratify <by>", "offline: bootstrap within each subject: subject")
    .option("--from <date>", "offline: only proposals dated on or after this day (YYYY-MM-DD)")
    .option("--to <date>", "offline: only proposals dated on or before this day (YYYY-MM-DD)")
    .option(
      "--max-committee <n>",
      "offline: drop proposals whose committee has more members (counted and listed)",
      wholeNumber(1),
    )
    .action(createFromFlags);
}

async function createFromFlags(o: CreateOptions, command: Command) {
  if (!(RESULT_KINDS as readonly string[]).includes(o.kind))
    throw new CliError(
      `--kind must be ${RESULT_KINDS.slice(0, -1).join(", ")} or ${RESULT_KINDS.at(-1)}, not "${o.kind}".`,
      2,
    );
  if (o.kind === "expert" && !o.campaign) throw new CliError("An expert snapshot needs --campaign <id>.", 2);
  if (o.kind === "online" && !o.experiment)
    throw new CliError("An online snapshot needs --experiment <key>.", 2);
  if (o.kind === "clicks" && !o.experiment)
    throw new CliError("A click-model snapshot needs --experiment <key>.", 2);
  // Click models split by the experiment's own seed and take the page's B unless given, as their page does.
  const pageDefault = (flag: string) =>
    o.kind === "clicks" && command.getOptionValueSource(flag) === "default";
  const seed = pageDefault("seed") ? undefined : o.seed;
  const B = pageDefault("bootstrap") ? undefined : o.bootstrap;
  const view = offlineViewSchema.safeParse({
    excludeConflicts: o.excludeConflicts ?? false,
    stratify: o.stratify ?? null,
    from: o.from ?? null,
    to: o.to ?? null,
    ...(o.maxCommittee ? { maxCommittee: o.maxCommittee } : {}),
  });
  if (!view.success) throw new CliError(view.error.issues[0].message, 2);
  const offlineView = o.kind === "offline" ? view.data : undefined;
  const created = await withDatabase((db) =>
    createSnapshot(db, "cli", {
      kind: o.kind as "offline",
      campaign: o.campaign,
      experiment: o.experiment,
      ks: o.k,
      B,
      seed,
      view: offlineView,
    }).catch(fail),
  );
  // Same parameters on unchanged data: the snapshot made before, not a new one (createSnapshot is idempotent).
  const how = created.created ? "frozen" : "already frozen with these parameters on this data";
  console.log(`Snapshot ${created.id} (${created.kind}) ${how}, sha256 ${created.sha256}.`);
}

function registerList(snapshot: Command) {
  snapshot
    .command("list")
    .description("list snapshots")
    .action(async () => {
      const rows = await withDatabase((db) => listSnapshots(db));
      if (rows.length === 0) return console.log("No snapshots yet: create one with `assay snapshot create`.");
      console.log(
        table(
          ["id", "kind", "created", "by", "sha256"],
          rows.map((r) => [r.id, r.kind, r.createdAt.toISOString(), r.createdByLabel, r.sha256.slice(0, 16)]),
        ),
      );
    });
}

function registerExport(snapshot: Command) {
  snapshot
    .command("export")
    .description("print a snapshot as JSON (assay.snapshot/v1) or CSV")
    .argument("<id>", "snapshot id")
    .option("--format <format>", "json or csv", "json")
    .action(async (id: string, o: { format: string }) => {
      const snapshotId = toId(id);
      if (snapshotId === null)
        throw new CliError(`The snapshot id must be a whole number from 1 to ${MAX_ID}, not "${id}".`, 2);
      if (!["json", "csv"].includes(o.format))
        throw new CliError(`--format must be json or csv, not "${o.format}".`, 2);
      const s = await withDatabase((db) => getSnapshot(db, snapshotId).catch(fail));
      process.stdout.write(
        o.format === "json" ? JSON.stringify(snapshotDocument(s), null, 2) + "\n" : snapshotCsv(s),
      );
    });
}
