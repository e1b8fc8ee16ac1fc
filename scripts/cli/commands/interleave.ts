import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { interleaveFromFile } from "../../io/interleaving-file";
import type { CreditKind } from "../../interleaving/results";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { CliError } from "../errors";
import { ciText, emit, formatOf, type Format } from "../output";
import { assertReadable, refuseBadEventLines, wholeNumber } from "../options";

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
  bootstrap: number;
  seed: string;
  json?: boolean;
  csv?: boolean;
}

async function interleave(o: InterleaveOptions) {
  const format = formatOf(o);
  await assertReadable(o.events, "events");
  const outcome = await interleaveFromFile(o.events, {
    credit: o.credit,
    control: o.control,
    B: o.bootstrap,
    seed: o.seed,
  });
  if (!outcome.ok && "errors" in outcome) refuseBadEventLines(o.events, outcome.errors);
  if (!outcome.ok) throw new CliError(outcome.problem, 2);
  if ("multileaving" in outcome) printMultileave(format, outcome);
  else printInterleave(format, outcome);
}

type Outcome = Extract<Awaited<ReturnType<typeof interleaveFromFile>>, { ok: true }>;

const qualityLine = (q: Outcome["quality"]) =>
  `Data quality: ${q.duplicateEvents} duplicate events, ${q.sessionsWithoutImpression} sessions without an impression, ${q.eventsAboutUnshownCandidates} events about candidates never shown in their session.\n`;

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
      `${r.credit} credit, ${r.challenger} (challenger) against ${r.control} (control); ${sessions} sessions, ${noPreference} without preference.`,
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
