import fs from "node:fs";
import { Readable } from "node:stream";
import { gunzipBounded, GunzipLimitError } from "./gunzip";

/** An input that cannot be read: the message names the file and says why, in one sentence. */
export class InputError extends Error {}

/** What `-` stands for in messages. */
export const STDIN_NAME = "standard input";

/** How an input is named in messages: `-` as standard input, any other by its path. */
export function inputName(file: string): string {
  return file === "-" ? STDIN_NAME : file;
}

/** Standard input can be read once: its bytes, and which input (qrels, run…) read them. */
let stdin: { what: string; bytes: Promise<Buffer> } | null = null;

/**
 * `-` (standard input) and `*.gz` files are read through a stream into memory; anything else is a
 * plain file, which readers may open and read by byte range (several threads, say).
 */
export function isStreamedInput(file: string): boolean {
  return file === "-" || file.endsWith(".gz");
}

/**
 * The bytes of an input file, for every command that reads qrels, runs or events: `-` is standard
 * input, a name ending in `.gz` is gunzipped as it is read (node's zlib, streamed, within the limits
 * of gunzip.ts: past them a GunzipLimitError), and standard input
 * that starts with gzip's magic bytes is gunzipped too. Standard input is read at most once: asking
 * for it again for the same input gives the same bytes, for another input an error, since one stream
 * cannot be both.
 */
export async function readInput(file: string, what: string): Promise<Buffer> {
  if (file === "-") {
    if (stdin && stdin.what !== what)
      throw new InputError(`Cannot read both ${stdin.what} and ${what} from ${STDIN_NAME}.`);
    stdin ??= { what, bytes: readStdin(what) };
    return stdin.bytes;
  }
  if (!file.endsWith(".gz")) return readPlain(file, what);
  checkFile(file, what);
  return gunzipStream(fs.createReadStream(file), file, what);
}

/** Refuses `-` for more than one input (`--qrels - --run -`) before anything is read. */
export function checkOneStdin(inputs: readonly { file: string; what: string }[]) {
  const fromStdin = inputs.filter((i) => i.file === "-");
  if (fromStdin.length < 2) return;
  const names = [...new Set(fromStdin.map((i) => i.what))];
  throw new InputError(
    names.length > 1
      ? `Cannot read both ${names.join(" and ")} from ${STDIN_NAME}: give \`-\` for one of them only.`
      : `Cannot read more than one ${names[0]} from ${STDIN_NAME}: give \`-\` once.`,
  );
}

/** Fails early, with the file's name, when an input is missing or a folder (`-` is always there). */
export function checkFile(file: string, what: string) {
  if (file === "-") return;
  try {
    if (fs.statSync(file).isDirectory()) throw Object.assign(new Error("folder"), { code: "EISDIR" });
  } catch (error) {
    throw new InputError(unreadable(file, what, error));
  }
}

function readPlain(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new InputError(unreadable(file, what, error));
  }
}

async function readStdin(what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const input = process.stdin;
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return Buffer.alloc(0);
  const head = Buffer.from(first.value as Buffer);
  if (head[0] === 0x1f && head[1] === 0x8b) {
    // Compressed on standard input (`zcat` forgotten, or `curl` of a .gz): gunzipped as it comes.
    const rest = Readable.from(
      (async function* () {
        yield head;
        for (let next = await iterator.next(); !next.done; next = await iterator.next())
          yield next.value as Buffer;
      })(),
    );
    return gunzipStream(rest, STDIN_NAME, what);
  }
  chunks.push(head);
  for (let next = await iterator.next(); !next.done; next = await iterator.next())
    chunks.push(next.value as Buffer);
  return Buffer.concat(chunks);
}

async function gunzipStream(source: Readable, file: string, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of gunzipBounded(source, file)) chunks.push(chunk);
  } catch (error) {
    if (error instanceof GunzipLimitError) throw error;
    throw new InputError(gzipProblem(file, what, error));
  }
  return Buffer.concat(chunks);
}

function gzipProblem(file: string, what: string, error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "Z_DATA_ERROR" && /header/.test(e.message))
    return `${file} is not a gzip file (the ${what} file ends in .gz but its bytes are not gzip's).`;
  if (e.code === "Z_BUF_ERROR" || /unexpected end/.test(e.message))
    return `${file} is a truncated gzip file: its ${what} data ends before the gzip stream does.`;
  if (e.code === "Z_DATA_ERROR") return `${file} is a damaged gzip file (${e.message}).`;
  return unreadable(file, what, error);
}

function unreadable(file: string, what: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return `Cannot read the ${what} file ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message}.`;
}
