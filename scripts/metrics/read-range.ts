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

/** The same, read on libuv's thread pool, so the caller can parse something else meanwhile. */
export async function readRangeAsync(file: string, start: number, end: number): Promise<Uint8Array> {
  const handle = await fs.promises.open(file, "r");
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, start + offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return bytes.subarray(0, offset);
  } finally {
    await handle.close();
  }
}
