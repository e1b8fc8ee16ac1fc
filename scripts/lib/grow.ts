/** A copy of `array` with room for `capacity` elements, for arrays filled as a file is read. */
export function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T, capacity: number): T {
  const next = new (array.constructor as { new (n: number): T })(capacity);
  next.set(array);
  return next;
}
