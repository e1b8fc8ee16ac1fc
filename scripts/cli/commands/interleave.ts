import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { interleaveFromFile } from "../../io/interleaving-file";
import type { CreditKind } from "../../interleaving/results";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { CliError } from "../errors";
import { ciText, emit, formatOf, type Format } from "../output";
import { assertReadable, refuseBadEventLines, wholeNumber } from "../options";
import fs from "node:fs";
import { detectFormat, parseImportFile } from "../../../db/import/parse";
import type { ListRow } from "../../interleaving/marginalise";

function creditKind(value: string): CreditKind {
  if (value !== "click" && value !== "adopt") throw new InvalidArgumentError("must be click or adopt.");
  return value;
}

export function registerInterleave(program: Command) {
  program
    .command("interleave")
    .description(
      "an interleaved (team-draft) experiment's result from convener events (JSONL): wins, ties, the challenger's win rate with a CI over units, sign test p; a multileaved log (three or more teams): the pairwise preference matrix with CIs and p, and the systems' ranking",
    )
    .requiredOption("--events <file>", "events, one JSON object per line; impressions carry teams")
    .option("--credit <kind>", "credit by click or adopt", creditKind, "click")
    .option("--control <system>", "the control system (default: the first team by name)")
    .option(
      "--lists <file>",
      "probabilistic interleaving: the two systems' ranked lists (CSV or JSONL with system, proposal, rank, candidate, as imported); credit is then marginalised over the team assignments",
    )
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "seed", DEFAULT_SEED)
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(interleave);
}

interface InterleaveOptions {
  events: string;
  credit: CreditKind;
  control?: string;
  lists?: string;
  bootstrap: number;
  seed: string;
  json?: boolean;
  csv?: boolean;
}

async function interleave(o: InterleaveOptions) {
  const format = formatOf(o);
  await assertReadable(o.events, "events");
  const lists = o.lists ? await readLists(o.lists) : undefined;
  const outcome = await interleaveFromFile(o.events, {
    credit: o.credit,
    control: o.control,
    lists,
    B: o.bootstrap,
    seed: o.seed,
  });
  if (!outcome.ok && "errors" in outcome) refuseBadEventLines(o.events, outcome.errors);
  if (!outcome.ok) throw new CliError(outcome.problem, 2);
  if ("multileaving" in outcome) printMultileave(format, outcome);
  else printInterleave(format, outcome);
}

/** The --lists file's rows (the default variant's), or exit 2 naming the first bad line. */
async function readLists(file: string): Promise<ListRow[]> {
  await assertReadable(file, "lists");
  const text = fs.readFileSync(file, "utf8");
  const { records, errors } = parseImportFile(text, detectFormat(file, text));
  if (errors.length) throw new CliError(`${file}:${errors[0].line}: ${errors[0].message}`, 2);
  const rows: ListRow[] = [];
  for (const { line, values } of records) {
    const [system, proposal, candidate] = [values.system, values.proposal, values.candidate].map((v) =>
      v === undefined || v === null ? "" : String(v).trim(),
    );
    const rank = Number(values.rank);
    const missing = !system ? "system" : !proposal ? "proposal" : !candidate ? "candidate" : null;
    if (missing) throw new CliError(`${file}:${line}: ${missing} is missing.`, 2);
    if (!Number.isInteger(rank) || rank < 1)
      throw new CliError(
        `${file}:${line}: rank must be a whole number of at least 1, not ${String(values.rank)}.`,
        2,
      );
    const variant =
      values.variant === undefined || values.variant === null ? "" : String(values.variant).trim();
    // The lists a convener was shown are the default variant's.
    if (variant === "" || variant === "default") rows.push({ system, proposal, rank, candidate });
  }
  return rows;
}

type Outcome = Extract<Awaited<ReturnType<typeof interleaveFromFile>>, { ok: true }>;

const qualityLine = (q: Outcome["quality"]) =>
  `Data quality: ${q.duplicateEvents} duplicate events, ${q.sessionsWithoutImpression} sessions without an impression, ${q.eventsAboutUnshownCandidates} events about candidates never shown in their session${q.sessionsWithoutLists !== undefined ? `, ${q.sessionsWithoutLists} sessions the lists do not explain (left out)` : ""}.\n`;

/** A multileaved log (three or more teams): one row per ordered pair, then the ranking in table form. */
function printMultileave(
  format: Format,
  { multileaving: m, quality: q }: Extract<Outcome, { multileaving: unknown }>,
) {
  if (format === "table") {
    console.log(
      `${m.credit} credit, team-draft multileaving of ${m.systems.join(", ")}; ${m.sessions} sessions, ${m.noPreference} without any credit.`,
    );
    console.log(qualityLine(q));
    console.log(
      `Ranking (Copeland score, then mean share): ${m.ranking.map((s) => `${s.rank}. ${s.system} (${s.copeland > 0 ? "+" : ""}${s.copeland})`).join(", ")}\n`,
    );
  }
  emit(
    format,
    m,
    ["system", "over", "wins", "losses", "ties", "share", "ci95", "p (sign test)"],
    m.pairs.map((p) => [
      p.system,
      p.other,
      p.wins,
      p.losses,
      p.ties,
      p.share,
      ciText(p.ci ? { lower: p.ci[0], upper: p.ci[1] } : null),
      p.pValue,
    ]),
  );
}

function printInterleave(format: Format, { result: r, quality: q }: Extract<Outcome, { result: unknown }>) {
  const { sessions, noPreference, wins, ties, winRate, ci, pValue } = r;
  if (format === "table") {
    console.log(
      `${r.credit} credit${q.sessionsWithoutLists !== undefined ? " (probabilistic interleaving, marginalised)" : ""}, ${r.challenger} (challenger) against ${r.control} (control); ${sessions} sessions, ${noPreference} without preference.`,
    );
    console.log(qualityLine(q));
  }
  emit(
    format,
    {
      control: r.control,
      challenger: r.challenger,
      credit: r.credit,
      sessions,
      noPreference,
      wins,
      ties,
      winRate,
      ci,
      pValue,
    },
    [
      "sessions",
      "no preference",
      `wins ${r.control}`,
      `wins ${r.challenger}`,
      "ties",
      "win rate",
      "ci95",
      "p (sign test)",
    ],
    [
      [
        sessions,
        noPreference,
        wins[r.control],
        wins[r.challenger],
        ties,
        winRate,
        ciText(ci ? { lower: ci[0], upper: ci[1] } : null),
        pValue,
      ],
    ],
  );
}
