/** A value as it arrives through JSON (a loader's data or a stored snapshot): the same shape, read-only use. */
export type Json<T> = T extends (infer U)[]
  ? Json<U>[]
  : T extends object
    ? { [K in keyof T]: Json<T[K]> }
    : T;
