import type { Readable } from "node:stream";
import { FormatError } from "../eval/trec-reader";

/**
 * The most a gzipped input may expand to, and how many times its compressed size. Text inputs
 * (qrels, runs, events, click logs) compress 3 to 20 times; a gzip bomb expands about 1,000 times, so
 * a 2 MB file would hold 2 GB. The ratio counts only past `ratioFloor`, so a small, very repetitive
 * file is never refused for it.
 */
export interface GunzipLimits {
  maxBytes: number;
  maxRatio: number;
  ratioFloor: number;
}

export const GUNZIP_LIMITS: GunzipLimits = {
  maxBytes: 4 * 1024 ** 3,
  maxRatio: 200,
  ratioFloor: 64 * 1024 ** 2,
};

/**
 * A gzipped input that expands past a limit: the message says which, and what to do. A FormatError,
 * so every command that answers bad input with exit 2 answers this one so too.
 */
export class GunzipLimitError extends FormatError {
  constructor(name: string, expanded: number, compressed: number, limits: GunzipLimits) {
    const mib = (n: number) => `${Math.round(n / 1024 ** 2).toLocaleString("en")} MB`;
    super(
      expanded > limits.maxBytes
        ? `${name} expands to more than ${mib(limits.maxBytes)}, the most a gzipped input may hold: decompress it first (gunzip) if it is genuine.`
        : `${name} expands more than ${limits.maxRatio} times its compressed size (${mib(expanded)} from ${mib(compressed)} so far), as a gzip bomb does: decompress it first (gunzip) if it is genuine.`,
    );
  }
}

/** Whether `expanded` bytes out of `compressed` bytes in pass the limits. */
function withinLimits(expanded: number, compressed: number, limits: GunzipLimits) {
  return (
    expanded <= limits.maxBytes &&
    (expanded <= limits.ratioFloor || expanded <= limits.maxRatio * Math.max(compressed, 1))
  );
}

/**
 * Gunzips a stream, yielding its chunks and stopping with a GunzipLimitError the moment the output
 * passes a limit: memory stays bounded by the limits, never by what the file claims to hold. The one
 * way every gzipped input (CLI files, standard input, uploads) is expanded.
 */
export async function* gunzipBounded(
  source: Readable,
  name: string,
  limits: GunzipLimits = GUNZIP_LIMITS,
): AsyncGenerator<Buffer> {
  // Loaded only for a gzipped input: zlib costs every start of the CLI about 10 ms.
  const { createGunzip } = await import("node:zlib");
  let compressed = 0;
  let expanded = 0;
  source.on("data", (chunk: Buffer) => (compressed += chunk.length));
  const gunzip = createGunzip();
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      expanded += chunk.length;
      if (!withinLimits(expanded, compressed, limits))
        throw new GunzipLimitError(name, expanded, compressed, limits);
      yield chunk;
    }
  } finally {
    source.unpipe(gunzip);
    source.destroy();
    gunzip.destroy();
  }
}

/** `gunzipBounded` for bytes already in memory (a click log, an upload), whole. */
export async function gunzipBytesBounded(
  bytes: Uint8Array,
  name: string,
  limits: GunzipLimits = GUNZIP_LIMITS,
): Promise<Buffer> {
  const { Readable } = await import("node:stream");
  const chunks: Buffer[] = [];
  for await (const chunk of gunzipBounded(Readable.from([Buffer.from(bytes)]), name, limits))
    chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The synchronous form, for readers that take bytes and return text (the click logs): zlib stops at
 * the most the limits allow for this many compressed bytes, and the error says why.
 */
export function gunzipSyncBounded(
  gunzipSync: (bytes: Uint8Array, options: { maxOutputLength: number }) => Buffer,
  bytes: Uint8Array,
  name: string,
  limits: GunzipLimits = GUNZIP_LIMITS,
): Buffer {
  const allowed = Math.min(limits.maxBytes, Math.max(limits.ratioFloor, limits.maxRatio * bytes.length));
  try {
    return gunzipSync(bytes, { maxOutputLength: allowed });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new GunzipLimitError(name, allowed + 1, bytes.length, limits);
    throw error;
  }
}
