import type { Writable } from "node:stream";
import { BackupError } from "./format";

const NEWLINE = 10;

/**
 * Reads an archive's lines from a stream of buffers without holding more than one chunk: whole lines
 * for the header and markers, and runs of row lines handed on as raw bytes to a COPY.
 */
export class LineReader {
  private chunk: Buffer = Buffer.alloc(0);
  private offset = 0;
  private ended = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** False at the end of the stream. */
  private async fill(): Promise<boolean> {
    while (this.offset >= this.chunk.length) {
      if (this.ended) return false;
      const next = await this.chunks.next();
      if (next.done) {
        this.ended = true;
        return false;
      }
      this.chunk = next.value;
      this.offset = 0;
    }
    return true;
  }

  /** The next line without its newline; null at the end of the stream; `what` names it in errors. */
  async line(what: string, maxBytes = 64 * 1024 * 1024): Promise<string | null> {
    const parts: Buffer[] = [];
    let length = 0;
    while (await this.fill()) {
      const end = this.chunk.indexOf(NEWLINE, this.offset);
      const part = this.chunk.subarray(this.offset, end === -1 ? this.chunk.length : end);
      parts.push(part);
      length += part.length;
      if (length > maxBytes)
        throw new BackupError(
          `The archive's ${what} is longer than ${maxBytes} bytes: the file is not an Assay backup.`,
        );
      this.offset = end === -1 ? this.chunk.length : end + 1;
      if (end !== -1) return Buffer.concat(parts).toString("utf8");
    }
    if (length > 0)
      throw new BackupError(`The archive ends in the middle of its ${what}: the file is truncated.`);
    return null;
  }

  /**
   * Writes the next `count` lines, newlines included, to `sink`, waiting whenever it is full;
   * `onLines` hears how many went in each step.
   */
  async copyLines(count: number, sink: Writable, what: string, onLines: (n: number) => void = () => {}) {
    let left = count;
    while (left > 0) {
      if (!(await this.fill()))
        throw new BackupError(
          `The archive ends in the rows of ${what}, ${left} short of its ${count}: the file is truncated.`,
        );
      const start = this.offset;
      let taken = 0;
      let at = start;
      while (taken < left) {
        const end = this.chunk.indexOf(NEWLINE, at);
        if (end === -1) break;
        taken += 1;
        at = end + 1;
      }
      const through = taken < left ? this.chunk.length : at;
      this.offset = through;
      left -= taken;
      if (sink.errored) throw sink.errored; // the database refused a row: the rest need not be read
      if (!sink.write(this.chunk.subarray(start, through))) await drained(sink);
      if (taken) onLines(taken);
    }
  }

  /** Whether anything but the end of the stream is left. */
  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }
}

/** Resolves when `sink` takes writes again; rejects when it fails or closes first (never hangs on a dead one). */
export function drained(sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (sink.errored || sink.destroyed)
      return reject(sink.errored ?? new Error("the stream closed before it took all rows"));
    const settle = (error?: Error) => {
      sink.off("drain", onDrain).off("error", settle).off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(sink.errored ?? new Error("the stream closed before it took all rows"));
    sink.on("drain", onDrain).on("error", settle).on("close", onClose);
  });
}
