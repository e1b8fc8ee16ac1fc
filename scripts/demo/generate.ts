import { createRng, normal, shuffled, type Rng } from "../lib/random";
import {
  abstractSentences,
  demoSubjects,
  firstNames,
  institutions,
  lastNames,
  titlePatterns,
} from "./vocabulary";

export interface DemoOptions {
  seed?: string;
  proposals?: number;
  candidates?: number;
  listLength?: number;
  committeeSize?: number;
}

export interface DemoData {
  subjects: { key: string; name: string }[];
  candidates: {
    externalId: string;
    name: string;
    affiliation: string;
    email: string;
    keywords: string[];
    summary: string;
    subject: string;
  }[];
  proposals: { externalId: string; title: string; abstract: string; keywords: string[]; subject: string }[];
  systems: {
    key: string;
    name: string;
    version: string;
    noise: number;
    /** What building the system took, as its team would import it (systems import). */
    buildSeconds: number;
    memoryMb: number;
    /** Its prediction time per list: log-normal around this median (ms), with this log-SD. */
    latency: { medianMs: number; sigma: number };
  }[];
  lists: {
    system: string;
    proposal: string;
    variant: string;
    /** The list's prediction time in ms (lists import `latency_ms`). */
    latencyMs: number;
    items: { candidate: string; rank: number; score: number }[];
  }[];
  gold: { proposal: string; candidate: string }[];
}

/**
 * A deterministic, realistic data set: the same options always give the same data.
 *
 * Each (proposal, candidate) pair has a latent suitability (shared keywords, same subject, and a
 * personal factor). Gold committees are drawn from the most suitable candidates; each system sees the
 * suitability through its own noise, the challenger less noisily than the baseline, so the challenger
 * is measurably, not overwhelmingly, better.
 */
export function generateDemo(options: DemoOptions = {}): DemoData {
  const seed = options.seed ?? "assay-demo";
  const nProposals = options.proposals ?? 200;
  const nCandidates = options.candidates ?? 3000;
  const listLength = Math.min(options.listLength ?? 50, nCandidates);
  const committeeSize = options.committeeSize ?? 5;
  const rng = createRng(seed);

  const subjects = demoSubjects.map(({ key, name }) => ({ key, name }));
  // Drawn in this order from one generator: candidates, proposals, then committees and lists.
  const { candidates, candidateKeywords } = demoCandidates(rng, nCandidates);
  const proposals = demoProposals(rng, nProposals);
  // A keyword index is quick to build and to query; an embedding ranker is trained, embeds every
  // candidate and scores with a model, so it answers slower, more variably, and needs more to build.
  const systems = [
    {
      key: "baseline",
      name: "Baseline (keyword BM25)",
      version: "1.0",
      noise: 1.6,
      buildSeconds: 240,
      memoryMb: 1536,
      latency: { medianMs: 38, sigma: 0.35 },
    },
    {
      key: "challenger",
      name: "Challenger (embedding ranker)",
      version: "2.0",
      noise: 1.0,
      buildSeconds: 5400,
      memoryMb: 6144,
      latency: { medianMs: 92, sigma: 0.45 },
    },
  ];
  const { lists: untimed, gold } = committeesAndLists(
    rng,
    { candidates, candidateKeywords, proposals, systems },
    {
      listLength,
      committeeSize,
    },
  );
  // Latencies come from a generator of their own, so every other figure of the demo stays as it was.
  const timing = createRng(`${seed}:latency`);
  const latencyOf = new Map(systems.map((s) => [s.key, s.latency]));
  const lists = untimed.map((l) => {
    const { medianMs, sigma } = latencyOf.get(l.system)!;
    return { ...l, latencyMs: round(medianMs * Math.exp(sigma * normal(timing)), 1) };
  });
  return { subjects, candidates, proposals, systems, lists, gold };
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Researchers of one subject each (about a quarter also in a second), with their keywords as sets. */
function demoCandidates(rng: Rng, nCandidates: number) {
  const candidates: DemoData["candidates"] = [];
  const candidateKeywords: Set<string>[] = [];
  for (let i = 0; i < nCandidates; i++) {
    const subject = demoSubjects[rng.int(demoSubjects.length)];
    const first = firstNames[rng.int(firstNames.length)];
    const last = lastNames[rng.int(lastNames.length)];
    const own = shuffled(subject.keywords, rng).slice(0, 3 + rng.int(4));
    // A few researchers straddle two fields, as real reviewers do.
    const other =
      rng.next() < 0.25
        ? shuffled(demoSubjects[rng.int(demoSubjects.length)].keywords, rng).slice(0, 1 + rng.int(2))
        : [];
    const keywords = [...new Set([...own, ...other])];
    const affiliation = institutions[rng.int(institutions.length)];
    candidates.push({
      externalId: `cand-${pad(i + 1, 4)}`,
      name: `${first} ${last}`,
      affiliation,
      email: `${first}.${last}.${i + 1}@example.org`.toLowerCase().replace(/[^a-z0-9.@-]/g, ""),
      keywords,
      summary: `Works on ${keywords.slice(0, 3).join(", ")} in ${subject.name.toLowerCase()}; ${3 + rng.int(25)} years of research experience.`,
      subject: subject.key,
    });
    candidateKeywords.push(new Set(keywords));
  }
  return { candidates, candidateKeywords };
}

/** Proposals taking the subjects in turn, titled and abstracted from their own keywords. */
function demoProposals(rng: Rng, nProposals: number) {
  const proposals: DemoData["proposals"] = [];
  for (let i = 0; i < nProposals; i++) {
    const subject = demoSubjects[i % demoSubjects.length];
    const keywords = shuffled(subject.keywords, rng).slice(0, 4 + rng.int(3));
    const [a, b, c] = keywords;
    const fill = (pattern: string) => pattern.replace("{a}", a).replace("{b}", b).replace("{c}", c);
    const title = fill(titlePatterns[rng.int(titlePatterns.length)]);
    proposals.push({
      externalId: `prop-${pad(i + 1, 4)}`,
      title: title.charAt(0).toUpperCase() + title.slice(1),
      abstract: shuffled(abstractSentences, rng).slice(0, 4).map(fill).join(" "),
      keywords,
      subject: subject.key,
    });
  }
  return proposals;
}

/** Each proposal's gold committee, drawn from its most suitable candidates, and each system's noisy list. */
function committeesAndLists(
  rng: Rng,
  data: Pick<DemoData, "candidates" | "proposals" | "systems"> & { candidateKeywords: Set<string>[] },
  { listLength, committeeSize }: { listLength: number; committeeSize: number },
) {
  const { candidates, candidateKeywords, proposals, systems } = data;
  const personal = Array.from({ length: candidates.length }, () => 0.6 * normal(rng));
  const lists: Omit<DemoData["lists"][number], "latencyMs">[] = [];
  const gold: DemoData["gold"] = [];
  for (const proposal of proposals) {
    const suitability = candidates.map((c, j) => {
      let overlap = 0;
      for (const k of proposal.keywords) if (candidateKeywords[j].has(k)) overlap++;
      return 1.2 * overlap + (c.subject === proposal.subject ? 1.5 : 0) + personal[j];
    });
    const latent = suitability.map((s) => s + 0.5 * normal(rng));
    const top = topIndices(latent, 15);
    for (const j of shuffled(top, rng).slice(0, committeeSize))
      gold.push({ proposal: proposal.externalId, candidate: candidates[j].externalId });
    for (const system of systems) {
      const scores = suitability.map((s) => s + system.noise * normal(rng));
      const ranked = topIndices(scores, listLength);
      lists.push({
        system: system.key,
        proposal: proposal.externalId,
        variant: "default",
        items: ranked.map((j, r) => ({
          candidate: candidates[j].externalId,
          rank: r + 1,
          score: round(sigmoid(scores[j] - 3), 4),
        })),
      });
    }
  }
  return { lists, gold };
}

function topIndices(values: number[], k: number): number[] {
  return values
    .map((v, i) => [v, i] as const)
    .sort((x, y) => y[0] - x[0] || x[1] - y[1])
    .slice(0, k)
    .map(([, i]) => i);
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function demoSummary(data: DemoData) {
  return `${data.subjects.length} subjects, ${data.proposals.length} proposals, ${data.candidates.length} candidates, ${data.systems.length} systems, ${data.lists.length} lists, ${data.gold.length} gold members`;
}

export type { Rng };
