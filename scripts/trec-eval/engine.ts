import { grow } from "../lib/grow";
import { MIN_GEO_MEAN } from "./measures-core";
import { atof, atol, format64, left22 } from "./printf";
import { selectMeasures, type TrecMeasure } from "./registry";
import { NONPOOL, resRelsFromLabels, UNJUDGED, type ResRels, type Settings } from "./res-rels";

export class TrecInputError extends Error {}

/** trec_eval's command-line settings. */
export interface TrecEvalOptions {
  /** -q: each query's values too. */
  perQuery?: boolean;
  /** -c: average over every query of the qrels. */
  complete?: boolean;
  /** -n: no summary. */
  noSummary?: boolean;
  /** -l */
  relevanceLevel?: number;
  /** -J */
  judgedOnly?: boolean;
  /** -M */
  maxRetrieved?: number;
  /** -N */
  numDocsInColl?: number;
  /** -m, each as given. */
  measures?: string[];
  /** trec_eval 10.0 rather than 9.0.8. */
  v10?: boolean;
}

interface Entry {
  docno: string;
  sim: number;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Qrels as trec_eval reads them: `qid iter docno rel`, rel an integer (atol). */
export function readQrels(text: string, source = "qrels"): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const lines = text.split("\n");
  lines.forEach((line, n) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === "") return;
    if (fields.length !== 4)
      throw new TrecInputError(
        `${source}: line ${n + 1} is malformed (trec_eval reads qid iter docno rel, four fields)`,
      );
    const [qid, , docno, rel] = fields;
    let judged = out.get(qid);
    if (!judged) out.set(qid, (judged = new Map()));
    if (judged.has(docno)) throw new TrecInputError(`${source}: ${docno} is judged twice for query ${qid}`);
    judged.set(docno, atol(rel));
  });
  return out;
}

/**
 * A run as trec_eval reads it: `qid iter docno rank sim run_id`, fields after the sixth ignored; the
 * rank is ignored and sim read as a float (9.0.8) or a double (10.0). The run id is the last line's.
 */
export function readRun(
  text: string,
  v10: boolean,
  source = "run",
): { byQuery: Map<string, Entry[]>; runId: string } {
  const byQuery = new Map<string, Entry[]>();
  let runId = "";
  text.split("\n").forEach((line, n) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === "") return;
    if (fields.length < 6)
      throw new TrecInputError(
        `${source}: line ${n + 1} is malformed (trec_eval reads qid iter docno rank sim run_id, six fields)`,
      );
    const [qid, , docno, , sim, tag] = fields;
    let entries = byQuery.get(qid);
    if (!entries) byQuery.set(qid, (entries = []));
    entries.push({ docno, sim: v10 ? atof(sim) : Math.fround(atof(sim)) });
    runId = tag;
  });
  return { byQuery, runId };
}

/** One query's ranked labels in trec_eval's order: sim descending, ties by docno descending. */
function rankedLabels(
  qid: string,
  entries: Entry[],
  judged: Map<string, number>,
  maxRetrieved: number,
  source: string,
): Float64Array {
  const sorted = entries.slice().sort((a, b) => b.sim - a.sim || byteOrder(b.docno, a.docno));
  const kept = sorted.slice(0, Math.min(sorted.length, maxRetrieved));
  const seen = new Set<string>();
  const labels = new Float64Array(kept.length);
  kept.forEach((e, i) => {
    if (seen.has(e.docno))
      throw new TrecInputError(
        `${source}: ${e.docno} appears twice in the list of query ${qid} (trec_eval: duplicate docs)`,
      );
    seen.add(e.docno);
    labels[i] = judged.has(e.docno) ? judged.get(e.docno)! : NaN;
  });
  return labels;
}

function relString(rr: ResRels, length: number) {
  let out = "";
  for (let i = 0; i < Math.max(0, Math.min(Math.trunc(length), rr.numRet)); i++) {
    const rel = rr.list[i];
    out += rel > 9 ? ">" : rel >= 0 ? String(rel) : rel === NONPOOL ? "-" : rel === UNJUDGED ? "." : "<";
  }
  return out;
}

/**
 * What `trec_eval` prints for these qrels and run (the text of both files): the same lines, in the
 * same order, with the same formatting as trec_eval 9.0.8 (or 10.0 with `v10`).
 */
export function trecEval(
  qrelsText: string,
  runText: string,
  options: TrecEvalOptions = {},
  sources = { qrels: "qrels", run: "run" },
): string {
  const v10 = options.v10 ?? false;
  const queries = new TrecEvalQueries(options);
  const qrels = readQrels(qrelsText, sources.qrels);
  const { byQuery, runId } = readRun(runText, v10, sources.run);
  if (byQuery.size === 0) throw noResults(sources.run);
  // 9.0.8 goes through the run's queries; 10.0 through the qrels' and, with -c, evaluates a missing
  // list as empty (all zero) and prints it.
  const qids = [...(v10 ? qrels.keys() : byQuery.keys())].sort(byteOrder);
  for (const qid of qids) {
    const judged = qrels.get(qid);
    const entries = byQuery.get(qid);
    if (!judged || (!entries && !(v10 && options.complete))) continue;
    const labels = entries
      ? rankedLabels(qid, entries, judged, options.maxRetrieved ?? Infinity, sources.run)
      : null;
    queries.add(qid, labels, [...judged.values()]);
  }
  return queries.print(runId, qrelsSummary(qrels.values()));
}

export function noResults(source: string) {
  return new TrecInputError(`${source}: no results (trec_eval: Cannot read results file)`);
}

/** What the summary reads of the qrels besides the queries evaluated: their number, and labels above 0. */
export interface QrelsSummary {
  queries: number;
  positiveLabels: number;
}

function qrelsSummary(judgements: Iterable<Map<string, number>>): QrelsSummary {
  let queries = 0;
  let positiveLabels = 0;
  for (const judged of judgements) {
    queries++;
    for (const rel of judged.values()) if (rel > 0) positiveLabels++;
  }
  return { queries, positiveLabels };
}

/**
 * The queries of one evaluation, added in any order and printed in trec_eval's (query ids in byte
 * order): each query's values are kept, one row of a flat array, and summed only when printed, in
 * that order, so that the sums (and their last digits) are trec_eval's whatever order the run
 * listed its queries in. The text readers and the streamed one (scripts/io) share it.
 */
export class TrecEvalQueries {
  readonly measures: TrecMeasure[];
  private readonly settings: Settings;
  /** Where each measure's values start in a query's row. */
  private readonly offsets: number[];
  private readonly width: number;
  private readonly qids: string[] = [];
  private values = new Float64Array(1024);
  /** Per query, its relstring lines (-q with relstring only). */
  private readonly relStrings: string[][] = [];

  constructor(private readonly options: TrecEvalOptions) {
    const v10 = options.v10 ?? false;
    this.settings = {
      relevanceLevel: options.relevanceLevel ?? 1,
      numDocsInColl: options.numDocsInColl ?? 0,
      v10,
    };
    this.measures = selectMeasures(options.measures ?? [], v10);
    this.offsets = [];
    let width = 0;
    for (const m of this.measures) {
      this.offsets.push(width);
      width += m.names.length;
    }
    this.width = width;
  }

  /**
   * One query: its labels in rank order, cut to -M (null for a list the run lacks, which 10.0 with
   * -c evaluates as empty), and every label its judgements carry.
   */
  add(qid: string, labels: Float64Array | null, judged: ArrayLike<number>) {
    const { options, settings, width } = this;
    const rr = resRelsFromLabels(labels ?? new Float64Array(0), judged, settings.relevanceLevel, {
      judgedOnly: options.judgedOnly,
    });
    const row = this.qids.length * width;
    if (row + width > this.values.length) this.values = grow(this.values, (row + width) * 2);
    const relStrings: string[] = [];
    this.measures.forEach((m, k) => {
      if (m.def.name === "relstring" || m.def.name === "runid") {
        if (m.def.name === "relstring" && options.perQuery)
          relStrings.push(`${left22(m.names[0])}\t${qid}\t'${relString(rr, m.params.values[0])}'`);
        return;
      }
      // 10.0's stand-in for a missing list prints 0 where an empty list gives 0/0, except with -J.
      const values = m.def.calc(rr, m.params, settings);
      values.forEach((v, i) => {
        if (!labels && (m.def.name === "utility" || (!Number.isFinite(v) && !options.judgedOnly))) v = 0;
        this.values[row + this.offsets[k] + i] = v;
      });
    });
    this.qids.push(qid);
    this.relStrings.push(relStrings);
  }

  /** What trec_eval prints: each query's lines with -q, then the summary (unless -n). */
  print(runId: string, qrels: QrelsSummary): string {
    const { measures, options, qids, width, offsets } = this;
    if (qids.length === 0)
      throw new TrecInputError(
        "no queries with both results and relevance info (check that the query ids of the run and the qrels match)",
      );
    const sums = measures.map((m) => new Array<number>(m.names.length).fill(0));
    const lines: string[] = [];
    for (const q of byteOrderOf(qids)) {
      let relStrings = 0;
      measures.forEach((m, k) => {
        if (m.def.name === "relstring") {
          if (options.perQuery) lines.push(this.relStrings[q][relStrings++]);
          return;
        }
        if (m.def.name === "runid") return;
        for (let i = 0; i < m.names.length; i++) {
          const v = this.values[q * width + offsets[k] + i];
          sums[k][i] += v;
          if (options.perQuery && m.def.perQuery)
            lines.push(`${left22(m.names[i])}\t${qids[q]}\t${m.def.integer ? Math.trunc(v) : format64(v)}`);
        }
      });
    }
    if (!options.noSummary)
      lines.push(
        ...summaryLines(measures, sums, {
          numQueries: qids.length,
          runId,
          complete: !!options.complete,
          qrels,
        }),
      );
    return lines.map((l) => `${l}\n`).join("");
  }
}

/** The indices of `qids` in byte order of their ids (file order when that is already it). */
function byteOrderOf(qids: string[]): number[] {
  const order = Array.from(qids.keys());
  for (let i = 1; i < qids.length; i++)
    if (byteOrder(qids[i - 1], qids[i]) > 0) return order.sort((a, b) => byteOrder(qids[a], qids[b]));
  return order;
}

function summaryLines(
  measures: TrecMeasure[],
  sums: number[][],
  context: { numQueries: number; runId: string; complete: boolean; qrels: QrelsSummary },
) {
  const { numQueries, complete, qrels } = context;
  const n = complete ? qrels.queries : numQueries;
  const lines: string[] = [];
  measures.forEach((m, k) => {
    if (m.def.name === "runid") lines.push(`${left22("runid")}\tall\t${context.runId}`);
    if (m.def.average === "none") return;
    sums[k].forEach((sum, i) => {
      let value = sum;
      if (m.def.average === "mean") value = n ? sum / n : sum;
      else if (m.def.average === "gm")
        value =
          n > 0 ? Math.exp((sum + (complete ? (n - numQueries) * Math.log(MIN_GEO_MEAN) : 0)) / n) : sum;
      else if (m.def.average === "num_q") value = n;
      else if (m.def.average === "num_rel" && complete) {
        // trec_eval counts labels above 0 here, whatever -l says.
        value = qrels.positiveLabels;
      }
      lines.push(`${left22(m.names[i])}\tall\t${m.def.integer ? Math.trunc(value) : format64(value)}`);
    });
  });
  return lines;
}
