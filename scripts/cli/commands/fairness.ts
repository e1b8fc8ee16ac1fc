import type { Command } from "commander";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import {
  DEFAULT_MIN_GROUP,
  fairnessReport,
  pooled,
  type FairnessInput,
  type SystemFairness,
} from "../../fairness/report";
import { CliError } from "../errors";
import { emit, formatOf } from "../output";
import { fairnessReportOnThreads } from "../../workers/fairness-reports";
import { FAIRNESS_HEADERS, REPRESENTATION, reportJson, rowsOf } from "../fairness-output";
import { collect, cutoffList, oneStdin, readText, wholeNumber } from "../options";
import {
  parseAttributes,
  parseCandidateIds,
  parseCommittees,
  parseLists,
  parseMeritQrels,
  parseSubjects,
  parseSubtopicQrels,
  parseTargets,
} from "./fairness-files";

interface FairnessOptions {
  lists: string;
  attributes: string;
  candidates?: string;
  qrels?: string;
  committees?: string;
  meritQrels?: string;
  proposals?: string;
  bySubject?: boolean;
  target: string[];
  variant: string;
  k: number[];
  minGroup: number;
  bootstrap: number;
  seed: string;
  json?: boolean;
  csv?: boolean;
}

export function registerFairness(program: Command) {
  program
    .command("fairness")
    .description(
      "Group fairness and diversity of ranked lists: each group's share and exposure in the top K, " +
        "rND, rKL and rRD (Yang & Stoyanovich 2017, exact normaliser), AWRF (TREC Fair Ranking 2022) and, " +
        "with --qrels, alpha-nDCG and subtopic recall (ndeval); means over proposals with bootstrap CIs",
    )
    .requiredOption(
      "--lists <file>",
      "lists in the import format: system,proposal,rank,candidate[,score,variant]",
    )
    .requiredOption("--attributes <file>", "CSV candidate,attribute,value (its candidates are the pool)")
    .option("--candidates <file>", "candidates import file: refuse attributes of candidates it does not name")
    .option("--qrels <file>", "subtopic qrels (topic subtopic candidate judgment) for alpha-nDCG and strec")
    .option("--committees <file>", "gold committees (proposal,candidate): their groups' shares, and merit")
    .option("--merit-qrels <file>", "graded qrels (topic 0 candidate grade): merit by grade, not membership")
    .option(
      "--target <attribute=value:share>",
      "the share expected of a group, 0-1 (repeatable), e.g. gender=f:0.4",
      collect,
      [],
    )
    .option("--by-subject", "also each subject's representation (subjects from --proposals)")
    .option("--proposals <file>", "proposals import file (external_id,…,subject): the subjects")
    .option("--variant <name>", "which variant's lists", "default")
    .option("--k <list>", "cut-offs for share, exposure, AWRF and diversity", cutoffList, [10, 20, 50])
    .option(
      "--min-group <n>",
      "groups with fewer members in the pool get no figure",
      wholeNumber(1),
      DEFAULT_MIN_GROUP,
    )
    .option("--bootstrap <B>", "bootstrap resamples of proposals", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "seed of the bootstrap", DEFAULT_SEED)
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(fairness);
}

async function fairness(options: FairnessOptions) {
  const format = formatOf(options);
  const files = {
    candidates: options.candidates,
    qrels: options.qrels,
    committees: options.committees,
    "merit-qrels": options.meritQrels,
  };
  oneStdin([
    { file: options.lists, what: "--lists" },
    { file: options.attributes, what: "--attributes" },
    ...Object.entries({ ...files, proposals: options.proposals }).flatMap(([what, file]) =>
      file ? [{ file, what: `--${what}` }] : [],
    ),
  ]);
  if (options.bySubject && !options.proposals)
    throw new CliError("--by-subject needs --proposals <file>: the proposals with their subjects.", 2);
  const input = await fairnessInput(options);
  const report = await fairnessReportOnThreads(input);
  const subjects = options.bySubject ? bySubject(input, await subjectsOf(options.proposals!)) : null;
  emit(
    format,
    {
      ...reportJson(report),
      ...(subjects ? { subjects: mapValues(subjects, (r) => reportJson(r, REPRESENTATION).systems) } : {}),
    },
    [...(subjects ? ["subject"] : []), ...FAIRNESS_HEADERS],
    subjects
      ? [
          ...rowsOf(report).map((r) => ["all", ...r]),
          ...Object.entries(subjects).flatMap(([subject, r]) =>
            rowsOf(r, REPRESENTATION).map((row) => [subject, ...row]),
          ),
        ]
      : rowsOf(report),
  );
}

async function fairnessInput(options: FairnessOptions): Promise<FairnessInput> {
  const known = options.candidates
    ? parseCandidateIds(await readText(options.candidates, "--candidates"), options.candidates)
    : null;
  const attributes = parseAttributes(
    await readText(options.attributes, "--attributes"),
    options.attributes,
    known,
  );
  return {
    lists: parseLists(await readText(options.lists, "--lists"), options.lists, options.variant),
    attributes,
    targets: parseTargets(options.target, attributes),
    committees: options.committees
      ? parseCommittees(await readText(options.committees, "--committees"), options.committees)
      : undefined,
    merit: options.meritQrels
      ? parseMeritQrels(await readText(options.meritQrels, "--merit-qrels"), options.meritQrels)
      : undefined,
    aspects: options.qrels
      ? parseSubtopicQrels(await readText(options.qrels, "--qrels"), options.qrels)
      : undefined,
    ks: options.k,
    minGroup: options.minGroup,
    bootstrap: { B: options.bootstrap, seed: options.seed },
  };
}

async function subjectsOf(file: string) {
  return parseSubjects(await readText(file, "--proposals"), file);
}

const mapValues = <T, U>(o: Record<string, T>, f: (v: T) => U) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** The report on each subject's proposals alone (the pool stays the whole pool); "" for no subject. */
function bySubject(input: FairnessInput, subjects: ReadonlyMap<string, string>) {
  const names = [...new Set(subjects.values())].sort();
  const attributes = pooled(input);
  const out: Record<string, Record<string, SystemFairness>> = {};
  for (const subject of names) {
    const lists = new Map(
      [...input.lists]
        .map(
          ([system, bySystem]) =>
            [
              system,
              new Map([...bySystem].filter(([proposal]) => (subjects.get(proposal) ?? "") === subject)),
            ] as const,
        )
        .filter(([, bySystem]) => bySystem.size > 0),
    );
    if (lists.size)
      out[subject || "(none)"] = fairnessReport({ ...input, attributes, lists, aspects: undefined });
  }
  return out;
}
