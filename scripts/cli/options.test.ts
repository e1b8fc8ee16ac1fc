import { InvalidArgumentError } from "commander";
import { recordId } from "./options";

describe("recordId", () => {
  it("reads ids the way the pages do: a positive 32-bit integer in digits", () => {
    expect(recordId("7")).toBe(7);
    expect(recordId("2147483647")).toBe(2147483647);
    for (const bad of ["99999999999", "2147483648", "0", "-1", "1e3", "0x10", " 7", "seven", ""]) {
      expect(() => recordId(bad), bad).toThrow(InvalidArgumentError);
    }
  });
});
