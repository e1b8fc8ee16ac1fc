import type { Command } from "commander";
import {
  CampaignError,
  closeCampaign,
  createCampaign,
  launchCampaign,
  listCampaigns,
} from "../../../db/campaigns/campaigns";
import { exportCampaign, type ExportFormat } from "../../../db/campaigns/campaign-data";
import { aggregationMethods } from "../../judgement/aggregate";
import { campaignSchema } from "../../inputs/campaigns";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import { table } from "../output";
import { wholeNumber } from "../options";
import { MAX_ID, toId } from "../../inputs/ids";

const fail = (error: unknown): never => {
  if (error instanceof CampaignError) throw new CliError(error.message.replace(/\.$/, "") + ".");
  throw error;
};
const campaignId = (raw: string) => {
  const id = toId(raw);
  if (id === null)
    throw new CliError(`The campaign id must be a whole number from 1 to ${MAX_ID}, not "${raw}".`, 2);
  return id;
};
const list = (value?: string) =>
  value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

export function registerCampaign(program: Command) {
  const campaign = program
    .command("campaign")
    .description("rating campaigns: create, launch, close, list, export");
  registerCreate(campaign);
  registerLaunchAndClose(campaign);
  registerList(campaign);
  registerExport(campaign);
}

interface CreateOptions {
  name: string;
  systems: string;
  depth: number;
  raters: number;
  experts: string;
  subject?: string;
  proposals?: string;
  instructions: string;
  deadline?: string;
}

function registerCreate(campaign: Command) {
  campaign
    .command("create")
    .description("create a campaign (a draft until launched)")
    .requiredOption("--name <name>", "campaign name")
    .requiredOption("--systems <keys>", "systems whose lists are pooled, comma-separated")
    .requiredOption("--depth <K>", "pool the top K of each system", wholeNumber(1))
    .requiredOption("--raters <r>", "raters per proposal", wholeNumber(1))
    .requiredOption("--experts <emails>", "experts invited, comma-separated")
    .option("--subject <key>", "only proposals of this subject")
    .option("--proposals <ids>", "only these proposals, comma-separated")
    .option("--instructions <text>", "instructions for the experts (markdown)", "")
    .option("--deadline <date>", "deadline, e.g. 2026-12-31")
    .action(async (o: CreateOptions) => {
      const parsed = campaignSchema.safeParse({
        name: o.name,
        systems: list(o.systems),
        depth: o.depth,
        raters: o.raters,
        experts: list(o.experts),
        subject: o.subject,
        proposals: o.proposals ? list(o.proposals) : undefined,
        instructions: o.instructions,
        deadline: o.deadline,
      });
      if (!parsed.success) throw new CliError(`${parsed.error.issues.map((i) => i.message).join("; ")}.`, 2);
      const created = await withDatabase((db) => createCampaign(db, "cli", parsed.data).catch(fail));
      console.log(
        `Created campaign ${created.id} (${created.name}), a draft. Launch it with: assay campaign launch ${created.id}`,
      );
    });
}

function registerLaunchAndClose(campaign: Command) {
  campaign
    .command("launch")
    .description("build the pool and assign each proposal to its raters")
    .argument("<id>", "campaign id")
    .action(async (id: string) => {
      const result = await withDatabase((db) => launchCampaign(db, "cli", campaignId(id)).catch(fail));
      console.log(
        `Launched campaign ${id}: ${result.items} pairs to grade, ${result.assignments} assignments.`,
      );
    });
  campaign
    .command("close")
    .description("close a campaign: grades can no longer change")
    .argument("<id>", "campaign id")
    .action(async (id: string) => {
      await withDatabase((db) => closeCampaign(db, "cli", campaignId(id)).catch(fail));
      console.log(`Closed campaign ${id}.`);
    });
}

function registerList(campaign: Command) {
  campaign
    .command("list")
    .description("list campaigns")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const rows = await withDatabase((db) => listCampaigns(db));
      if (o.json) return console.log(JSON.stringify(rows, null, 2));
      if (rows.length === 0) return console.log("No campaigns yet: create one with `assay campaign create`.");
      console.log(
        table(
          ["id", "name", "status", "proposals", "pairs", "raters", "grades"],
          rows.map((r) => [r.id, r.name, r.status, r.proposals, r.items, r.raters, r.ratings]),
        ),
      );
    });
}

function registerExport(campaign: Command) {
  campaign
    .command("export")
    .description("print the campaign's labels: aggregated qrels (rel = grade − 1), per-rater CSV, or JSON")
    .argument("<id>", "campaign id")
    .option("--format <format>", "qrels, csv or json", "qrels")
    .option(
      "--aggregate <method>",
      `how a pair's grades become its label: ${aggregationMethods.join(", ")}`,
      "median",
    )
    .action(async (id: string, o: { format: string; aggregate: string }) => {
      if (!["qrels", "csv", "json"].includes(o.format))
        throw new CliError(`--format must be qrels, csv or json, not "${o.format}".`, 2);
      const aggregate = aggregationMethods.find((m) => m === o.aggregate);
      if (!aggregate)
        throw new CliError(`--aggregate must be ${aggregationMethods.join(", ")}, not "${o.aggregate}".`, 2);
      const file = await withDatabase((db) =>
        exportCampaign(db, campaignId(id), o.format as ExportFormat, { aggregate }).catch(fail),
      );
      process.stdout.write(file.body.endsWith("\n") ? file.body : `${file.body}\n`);
    });
}
