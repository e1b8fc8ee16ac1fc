import type net from "node:net";
import { connect } from "node:net";
import { Duplex } from "node:stream";

/** What postgres.js passes to its `socket` option: the parsed hosts and ports (or a Unix socket path). */
interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/**
 * A `socket` factory for postgres.js that makes a database outage cheap for the app: once a
 * connection attempt has failed, further attempts fail at once (a refused socket) except one probe
 * at a time, no more often than every 0.1 s doubling to 1 s. So during an outage a request answers in
 * milliseconds instead of queueing behind connection attempts, and the server is not hammered; the
 * first probe the server answers opens the gate again. An attempt counts as answered when the server
 * sends its first message and that message is not an error (a server still starting up says 57P03).
 */
export function connectionGate() {
  let down = false;
  let probing = false;
  let nextProbeAt = 0;
  let delayMs = 100;
  let hostIndex = 0;
  return (options: SocketOptions): net.Socket => {
    const now = performance.now();
    if (down && (probing || now < nextProbeAt)) return refused();
    const socket = options.path
      ? connect(options.path)
      : connect(options.port[hostIndex % options.port.length], options.host[hostIndex % options.host.length]);
    hostIndex++;
    probing = down;
    let settled = false;
    const settle = (answered: boolean) => {
      if (settled) return;
      settled = true;
      socket.off("data", onData).off("error", onFailure).off("close", onFailure);
      probing = false;
      down = !answered;
      if (answered) delayMs = 100;
      else [nextProbeAt, delayMs] = [performance.now() + delayMs, Math.min(delayMs * 2, 1000)];
    };
    // 0x45 is 'E', an ErrorResponse: the server is there but cannot take a connection yet.
    const onData = (chunk: Buffer) => settle(chunk[0] !== 0x45);
    const onFailure = () => settle(false);
    socket.once("data", onData).once("error", onFailure).once("close", onFailure);
    return socket;
  };
}

/**
 * A stand-in socket that fails as a refused connection would, without touching the network. It fails
 * once the driver has written its startup message, not before: postgres.js 3.4.9 defers that write
 * to a `setImmediate` and, if the socket closes first, keeps the unsent bytes and a stale timer, so
 * that every later attempt of that pooled connection sends nothing and times out.
 */
function refused(): net.Socket {
  const error = Object.assign(new Error("The database is unavailable; not reconnecting yet."), {
    code: "ECONNREFUSED",
  });
  const stream: Duplex = new Duplex({
    read() {},
    write: (_chunk, _encoding, done) => {
      done();
      setImmediate(() => stream.destroy(error));
    },
  });
  return stream as unknown as net.Socket;
}
