import { createRng } from "./random";
import { createResampler } from "../stats/stratified";

describe("bulk draws", () => {
  it("fillInts gives the numbers int(n) gives, in the same order, and leaves the stream where they would", () => {
    const one = createRng("same stream");
    const bulk = createRng("same stream");
    const expected = Int32Array.from({ length: 1000 }, () => one.int(37));
    const out = new Int32Array(1010).fill(-1);
    bulk.fillInts(out, 37, 10, 1010);
    expect([...out.subarray(0, 10)]).toEqual(Array(10).fill(-1));
    expect([...out.subarray(10)]).toEqual([...expected]);
    expect(bulk.nextUint32()).toBe(one.nextUint32());
  });

  it("fillUint32 gives nextUint32's outputs in order, and leaves the stream where they would", () => {
    const one = createRng("same stream");
    const bulk = createRng("same stream");
    const expected = Array.from({ length: 500 }, () => one.nextUint32());
    const out = new Uint32Array(505);
    bulk.fillUint32(out, 5);
    expect([...out.subarray(0, 5)]).toEqual([0, 0, 0, 0, 0]);
    expect([...out.subarray(5)]).toEqual(expected);
    expect(bulk.int(1000)).toBe(one.int(1000));
  });

  it("keeps the stratified resampler's draws: each stratum's members, drawn in sorted label order", () => {
    const strata = ["b", "a", "b", "a", "b"];
    const out = new Int32Array(5);
    createResampler(5, createRng(7), strata)(out);
    const rng = createRng(7);
    const a = [1, 3];
    const b = [0, 2, 4];
    const expected = [...a.map(() => a[rng.int(2)]), ...b.map(() => b[rng.int(3)])];
    expect([...out]).toEqual(expected);
  });
});
