import net from "node:net";
import { createDb } from "./client";
import { isDatabaseUnavailable } from "./unavailable";

/**
 * A database that accepts connections but never answers (a host black-holed, a server stuck starting):
 * the first queries wait out the connect timeout (1.5 s), then the pool fails at once between probes,
 * so requests do not pile up behind connection attempts and the server sees one probe at a time.
 */
/** An error's message and its causes' (a driver's error may come wrapped). */
const messages = (e: unknown): string =>
  e instanceof Error ? `${e.message} ${messages((e as { cause?: unknown }).cause)}` : "";

let server: net.Server;
let accepted = 0;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  server = net.createServer((socket) => {
    accepted++;
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  sockets.forEach((s) => s.destroy());
  await new Promise((resolve) => server.close(resolve));
});

it("fails the first wave on the connect timeout and later queries without connecting, with at most one probe in flight", async () => {
  const { port } = server.address() as net.AddressInfo;
  const { db, sql } = createDb(`postgres://nobody:x@127.0.0.1:${port}/none`, { max: 10 });
  const timed = async () => {
    const error = await db.execute("select 1").catch((e: unknown) => e);
    return {
      unavailable: isDatabaseUnavailable(error),
      gated: messages(error).includes("not reconnecting yet"),
    };
  };
  const first = await Promise.all(Array.from({ length: 30 }, timed));
  expect(first.every((r) => r.unavailable)).toBe(true);
  const afterFirstWave = accepted;
  expect(afterFirstWave).toBeLessThanOrEqual(10);

  const later = await Promise.all(Array.from({ length: 50 }, timed));
  expect(later.every((r) => r.unavailable)).toBe(true);
  // At most one of them carried a probe (which waits for its timeout); the gate failed the others
  // without a connection attempt. (How fast: `npm run bench -- outage`, not a test.)
  expect(later.filter((r) => !r.gated).length).toBeLessThanOrEqual(1);
  expect(accepted - afterFirstWave).toBeLessThanOrEqual(1);
  await sql.end({ timeout: 0 });
});
