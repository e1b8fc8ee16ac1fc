import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { creditFromFile } from "../../io/interleaving-file";
import { resultFromCredit } from "../../interleaving/index";
import { multileavingSlices, type MultileavingSlicesTable } from "../../interleaving/multileave-slices";
import type { CreditKind } from "../../interleaving/results";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { CliError } from "../errors";
import { ciText, emit, formatOf, type Format } from "../output";
import { assertReadable, refuseBadEventLines, wholeNumber } from "../options";
import fs from "node:fs";
import { detectFormat, parseImportFile } from "../../../db/import/parse";
import type { ListRow } from "../../interleaving/marginalise";
import { groupSessions, interleavingSlices, UNKNOWN_SUBJECT_SLICE } from "../../interleaving/slices";
import type { ProposalCredit } from "../../interleaving/credit";
import { NO_VALUE_SLICE } from "../../online/slice-names";
import { readSliceFlags, withSliceOptions, type SliceFlags } from "./slice-options";

function creditKind(value: string): CreditKind {
  if (value !== "click" && value !== "adopt") throw new InvalidArgumentError("must be click or adopt.");
  return value;
}

export function registerInterleave(program: Command) {
  const command = program
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
    .option("--seed <seed>", "seed", DEFAULT_SEED);
  withSliceOptions(
    command,
    "the result per subject or per value of a convener attribute of --convener-attributes (two systems: the win rate; three or more: the preference matrix)",
  )
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(interleave);
}

interface InterleaveOptions extends SliceFlags {
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
  // The slice flags are checked, and their files read, before the events: a bad flag costs no pass.
  const sliceOf = await sliceKey(o);
  const lists = o.lists ? await readLists(o.lists) : undefined;
  const options = { credit: o.credit, control: o.control, lists, B: o.bootstrap, seed: o.seed };
  // The events are read once: the sessions' credit gives the whole result and, with --slice, each slice's.
  const credit = await creditFromFile(o.events, options);
  if (!credit.ok && "errors" in credit) refuseBadEventLines(o.events, credit.errors);
  if (!credit.ok) throw new CliError(credit.problem, 2);
  const outcome = resultFromCredit(credit.totals, options);
  if (!outcome.ok) throw new CliError(outcome.problem, 2);
  const { sessions } = credit.totals;
  if ("multileaving" in outcome) {
    if (sliceOf) printMultileaveSlices(format, o, outcome.multileaving.systems, sessions, sliceOf);
    else printMultileave(format, outcome);
  } else if (sliceOf) printSlices(format, o, outcome, sessions, sliceOf);
  else printInterleave(format, outcome);
}

/**
 * The slice of a session (its proposal's subject, or its convener's attribute value), with the same
 * flags and messages as `assay online`; null without --slice.
 */
async function sliceKey(o: InterleaveOptions): Promise<((s: ProposalCredit) => string) | null> {
  const { subjects, convenerValues } = await readSliceFlags(o);
  if (subjects) return (s) => subjects.get(s.proposal) ?? UNKNOWN_SUBJECT_SLICE;
  if (convenerValues) return (s) => convenerValues.get(s.unit) ?? NO_VALUE_SLICE;
  return null;
}

const correctionText = (table: { correction: string; comparisons: number }) =>
  `${table.comparisons} comparisons, p adjusted by ${table.correction === "holm" ? "Holm" : "Benjamini–Hochberg"}`;

/** The result per slice, by both credits, p adjusted across slices and credits (the page's table). */
function printSlices(
  format: Format,
  o: InterleaveOptions,
  { result: r }: Extract<Outcome, { result: unknown }>,
  sessions: ProposalCredit[],
  sliceOf: (s: ProposalCredit) => string,
) {
  const options = { control: r.control, challenger: r.challenger, B: o.bootstrap, seed: o.seed };
  const table = interleavingSlices(groupSessions(sessions, sliceOf), options)[o.adjust ?? "holm"];
  if (format === "table")
    console.log(
      `${r.challenger} (challenger) against ${r.control} (control) by ${o.slice}: ${correctionText(table)} across slices and both credits; fewer than 10 conveners: too few.\n`,
    );
  const rows = table.slices.flatMap((s) =>
    s.tooFew
      ? [[s.slice, "", s.sessions, "", "", "", "", s.reason, "", "", ""]]
      : s.credits.map((c) => [
          s.slice,
          c.credit,
          s.sessions,
          c.withPreference,
          c.result.wins[r.challenger],
          c.result.wins[r.control],
          c.result.ties,
          c.result.winRate,
          ciText(c.result.ci ? { lower: c.result.ci[0], upper: c.result.ci[1] } : null),
          c.result.pValue,
          c.adjustedP,
        ]),
  );
  emit(
    format,
    { control: r.control, challenger: r.challenger, attribute: o.slice, ...table },
    [
      "slice",
      "credit",
      "sessions",
      "with preference",
      "wins",
      "losses",
      "ties",
      "win rate",
      "ci95",
      "p",
      "adjusted p",
    ],
    rows,
  );
}

/**
 * A multileaved log per slice, by both credits: each unordered pair of systems once (the first as the
 * log orders them, the control first), p adjusted across slices, pairs and credits (the page's table).
 */
function printMultileaveSlices(
  format: Format,
  o: InterleaveOptions,
  systems: string[],
  sessions: ProposalCredit[],
  sliceOf: (s: ProposalCredit) => string,
) {
  const options = { systems, B: o.bootstrap, seed: o.seed };
  const table: MultileavingSlicesTable = multileavingSlices(groupSessions(sessions, sliceOf), options)[
    o.adjust ?? "holm"
  ];
  if (format === "table")
    console.log(
      `Team-draft multileaving of ${systems.join(", ")} by ${o.slice}: ${correctionText(table)} across slices, pairs of systems and both credits; fewer than 10 conveners: too few.\n`,
    );
  const rows = table.slices.flatMap((s) =>
    s.tooFew
      ? [[s.slice, "", s.sessions, "", "", "", "", "", s.reason, "", "", ""]]
      : s.credits.flatMap((c) =>
          c.result.pairs.flatMap((p, i) =>
            systems.indexOf(p.system) < systems.indexOf(p.other)
              ? [
                  [
                    s.slice,
                    c.credit,
                    s.sessions,
                    p.system,
                    p.other,
                    p.wins,
                    p.losses,
                    p.ties,
                    p.share,
                    ciText(p.ci ? { lower: p.ci[0], upper: p.ci[1] } : null),
                    p.pValue,
                    c.adjustedP[i],
                  ],
                ]
              : [],
          ),
        ),
  );
  emit(
    format,
    { systems, attribute: o.slice, ...table },
    [
      "slice",
      "credit",
      "sessions",
      "system",
      "over",
      "wins",
      "losses",
      "ties",
      "share",
      "ci95",
      "p",
      "adjusted p",
    ],
    rows,
  );
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

type Outcome = Extract<ReturnType<typeof resultFromCredit>, { ok: true }>;

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
