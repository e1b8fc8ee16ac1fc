import fs from "node:fs";

/** Bytes [start, end) of a file, read into memory of its own. */
export function readRange(file: string, start: number, end: number): Uint8Array {
  const bytes = Buffer.allocUnsafe(end - start);
  return bytes.subarray(0, readInto(file, bytes, 0, start, end));
}

/** Bytes [start, end) of a file, read into `bytes` from offset `at` (memory threads share, say); returns how many there were. */
export function readInto(file: string, bytes: Uint8Array, at: number, start: number, end: number): number {
  const fd = fs.openSync(file, "r");
  try {
    let offset = 0;
    while (offset < end - start) {
      const read = fs.readSync(fd, bytes, at + offset, end - start - offset, start + offset);
      if (read === 0) break;
      offset += read;
    }
    return offset;
  } finally {
    fs.closeSync(fd);
  }
}

/** The offset of the first line of a file that starts at or after `offset` (the file's size if none does). */
export function lineStartFrom(file: string, offset: number): number {
  if (offset === 0) return 0;
  const size = fs.statSync(file).size;
  for (let window = 65536; ; window *= 4) {
    const bytes = readRange(file, offset - 1, Math.min(size, offset - 1 + window));
    const newline = bytes.indexOf(10);
    if (newline >= 0) return offset + newline;
    if (offset - 1 + window >= size) return size;
  }
}
