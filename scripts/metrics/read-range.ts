import fs from "node:fs";

/** Bytes [start, end) of a file, read into memory of its own. */
export function readRange(file: string, start: number, end: number): Uint8Array {
  const fd = fs.openSync(file, "r");
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    let offset = 0;
    while (offset < bytes.length) {
      const read = fs.readSync(fd, bytes, offset, bytes.length - offset, start + offset);
      if (read === 0) break;
      offset += read;
    }
    return bytes.subarray(0, offset);
  } finally {
    fs.closeSync(fd);
  }
}
