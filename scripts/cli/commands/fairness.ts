import type { Command } from "commander";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { DEFAULT_MIN_GROUP, fairnessReport, type Figure, type SystemFairness } from "../../fairness/report";
import { emit, formatOf, type Cell } from "../output";
import { cutoffList, oneStdin, readText, wholeNumber } from "../options";
import { parseAttributes, parseCandidateIds, parseLists, parseSubtopicQrels } from "./fairness-files";

interface FairnessOptions {
  lists: string;
  attributes: string;
  candidates?: string;
  qrels?: string;
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
  oneStdin([
    { file: options.lists, what: "--lists" },
    { file: options.attributes, what: "--attributes" },
    ...(options.candidates ? [{ file: options.candidates, what: "--candidates" }] : []),
    ...(options.qrels ? [{ file: options.qrels, what: "--qrels" }] : []),
  ]);
  const known = options.candidates
    ? parseCandidateIds(await readText(options.candidates, "--candidates"), options.candidates)
    : null;
  const report = fairnessReport({
    lists: parseLists(await readText(options.lists, "--lists"), options.lists, options.variant),
    attributes: parseAttributes(
      await readText(options.attributes, "--attributes"),
      options.attributes,
      known,
    ),
    aspects: options.qrels
      ? parseSubtopicQrels(await readText(options.qrels, "--qrels"), options.qrels)
      : undefined,
    ks: options.k,
    minGroup: options.minGroup,
    bootstrap: { B: options.bootstrap, seed: options.seed },
  });
  emit(
    format,
    reportJson(report),
    ["system", "attribute", "group", "measure", "value", "lower", "upper", "lists"],
    rowsOf(report),
  );
}

/** JSON: each measure a number where it is found (system → attribute → groups → value → measure), its
 * interval beside it under `ci`; suppressed groups carry the reason instead of figures. */
function reportJson(report: Record<string, SystemFairness>) {
  const numbers = (figures: Record<string, Figure>) => ({
    ...Object.fromEntries(Object.entries(figures).map(([m, f]) => [m, f.value])),
    ci: Object.fromEntries(Object.entries(figures).map(([m, f]) => [m, f.ci])),
  });
  return {
    systems: Object.fromEntries(
      Object.entries(report).map(([system, s]) => [
        system,
        {
          proposals: s.proposals,
          ...Object.fromEntries(
            Object.entries(s.attributes).map(([name, a]) => [
              name,
              {
                ...numbers(a.figures),
                groups: Object.fromEntries(
                  Object.entries(a.groups).map(([group, g]) => [
                    group,
                    g.suppressed
                      ? { poolSize: null, suppressed: g.suppressed }
                      : { poolSize: g.poolSize, poolShare: g.poolShare, ...numbers(g.figures) },
                  ]),
                ),
              },
            ]),
          ),
          ...(s.diversity ? { diversity: numbers(s.diversity) } : {}),
        },
      ]),
    ),
  };
}

function rowsOf(report: Record<string, SystemFairness>): Cell[][] {
  const row = (system: string, attribute: string, group: string, measure: string, f: Figure): Cell[] => [
    system,
    attribute,
    group,
    measure,
    f.value,
    f.ci?.lower,
    f.ci?.upper,
    f.lists,
  ];
  return Object.entries(report).flatMap(([system, s]) => [
    ...Object.entries(s.attributes).flatMap(([name, a]) => [
      ...Object.entries(a.figures).map(([m, f]) => row(system, name, "", m, f)),
      ...Object.entries(a.groups).flatMap(([group, g]) =>
        g.suppressed
          ? [[system, name, group, g.suppressed, null, null, null, null]]
          : Object.entries(g.figures).map(([m, f]) => row(system, name, group, m, f)),
      ),
    ]),
    ...Object.entries(s.diversity ?? {}).map(([m, f]) => row(system, "", "", m, f)),
  ]);
}
