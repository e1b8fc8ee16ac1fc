/** `promise`'s value if it settles within `waitMs` (Infinity: whenever it does), else null; a rejection is thrown. */
export async function within<T>(promise: Promise<T>, waitMs: number): Promise<{ value: T } | null> {
  if (!Number.isFinite(waitMs)) return { value: await promise };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
  try {
    return await Promise.race([promise.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
