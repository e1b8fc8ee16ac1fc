import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { runAssay } from "../../test/run-cli";
import { GUNZIP_LIMITS, GunzipLimitError, gunzipBytesBounded, gunzipSyncBounded } from "./gunzip";

/** A gzip bomb: `mib` MiB of zeros, which gzip shrinks about 1,000 times. */
const bomb = (mib: number) => zlib.gzipSync(Buffer.alloc(mib * 1024 * 1024));
const small = { maxBytes: 8 * 1024 * 1024, maxRatio: 50, ratioFloor: 1024 * 1024 };

describe("bounded gunzip", () => {
  it("passes a genuine file whole", async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `q${i} 0 d${i} ${i % 3}`).join("\n");
    const gz = zlib.gzipSync(text);
    expect((await gunzipBytesBounded(gz, "qrels.gz", small)).toString()).toBe(text);
    expect(gunzipSyncBounded(zlib.gunzipSync, gz, "qrels.gz", small).toString()).toBe(text);
  });

  it("stops a bomb by its ratio, streamed or whole, naming the file", async () => {
    const gz = bomb(4);
    expect(gz.length).toBeLessThan(20_000);
    await expect(gunzipBytesBounded(gz, "bomb.gz", small)).rejects.toThrow(
      /^bomb\.gz expands more than 50 times its compressed size/,
    );
    expect(() => gunzipSyncBounded(zlib.gunzipSync, gz, "bomb.gz", small)).toThrow(GunzipLimitError);
  });

  it("stops at the most expanded bytes, whatever the ratio", async () => {
    const random = Buffer.from(Array.from({ length: 9 * 1024 * 1024 }, (_, i) => (i * 2654435761) >>> 24));
    const gz = zlib.gzipSync(random, { level: 1 });
    await expect(gunzipBytesBounded(gz, "big.gz", { ...small, maxRatio: 1e9 })).rejects.toThrow(
      /^big\.gz expands to more than 8 MB, the most a gzipped input may hold/,
    );
  });

  it("reads no more than the limits allow from a stream", async () => {
    let handedOut = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 1000; i++) {
          handedOut++;
          yield zlib.gzipSync(Buffer.alloc(1024 * 1024)); // concatenated members: 1 GB in all
        }
      })(),
    );
    const { gunzipBounded } = await import("./gunzip");
    const read = async () => {
      for await (const chunk of gunzipBounded(source, "members.gz", small)) void chunk;
    };
    await expect(read()).rejects.toThrow(GunzipLimitError);
    expect(handedOut).toBeLessThan(100);
  });

  it("assay eval refuses a 2 MB-class bomb with exit 2 and a sentence, not gigabytes of memory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bomb-"));
    const qrels = path.join(dir, "qrels.gz");
    fs.writeFileSync(qrels, bomb(GUNZIP_LIMITS.ratioFloor / 1024 / 1024 + 16));
    fs.writeFileSync(path.join(dir, "run.txt"), "q1 Q0 d1 1 1.0 r\n");
    const run = await runAssay(["eval", "--qrels", qrels, "--run", path.join(dir, "run.txt")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${qrels} expands more than 200 times its compressed size`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
