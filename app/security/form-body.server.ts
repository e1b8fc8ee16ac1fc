/** The most a page's form may send unless its route exports a larger `bodyLimit`. */
export const FORM_BODY_LIMIT = 1024 * 1024;

/**
 * How much of a refused body is still read and thrown away. A server that stops reading and closes the
 * connection makes the kernel answer the unread bytes with a reset, which can reach the client before
 * the 413 does; draining lets the refusal arrive. Past this much the connection is cut after all.
 */
const DISCARD_LIMIT = 256 * 1024 * 1024;

/**
 * The request body in memory, or null (nothing kept) when it is larger than `limit` bytes: refused at
 * once when Content-Length says so, else counted while reading (chunked bodies have no length), so a
 * large body is never held whole. A refused body is drained in the background.
 */
export async function readBodyWithin(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    void discard(reader);
    return null;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return joined(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      void discard(reader);
      return null;
    }
    chunks.push(value);
  }
}

/** Drains the body of a request refused before its body was read (see DISCARD_LIMIT), in the background. */
export function discardBody(request: Request) {
  if (request.body && !request.body.locked) void discard(request.body.getReader());
}

/** Reads and drops the rest of a refused body; a client that hangs up or sends without end is cut off. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > DISCARD_LIMIT) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing is left to read.
  }
}

function joined(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
