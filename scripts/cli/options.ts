import fs from "node:fs/promises";
import { InvalidArgumentError } from "commander";
import { CliError } from "./errors";
import { MAX_ID, toId } from "../inputs/ids";
import { checkOneStdin, InputError, readInput } from "../io/open-input";
import type { PairedTest } from "../stats/paired";

export function wholeNumber(min: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min)
      throw new InvalidArgumentError(`must be a whole number of at least ${min}.`);
    return Number(value);
  };
}

/** A database id (`--campaign 3`): a positive 32-bit integer, as the pages accept it (`toId`). */
export function recordId(value: string) {
  const id = toId(value);
  if (id === null) throw new InvalidArgumentError(`must be an id: a whole number from 1 to ${MAX_ID}.`);
  return id;
}

export function unitInterval(value: string) {
  const n = Number(value);
  if (value.trim() === "" || !(n >= 0 && n <= 1))
    throw new InvalidArgumentError("must be a number between 0 and 1.");
  return n;
}

export function collect(value: string, previous: string[]) {
  return [...previous, value];
}

export function cutoffList(value: string) {
  const parts = value.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1))
    throw new InvalidArgumentError("must be whole numbers of at least 1, separated by commas (5,10,20).");
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

export async function readText(file: string, what: string): Promise<string> {
  return (await readBytes(file, what)).toString("utf8");
}

/** A file's bytes; `-` is standard input and `*.gz` is gunzipped (readInput). */
export async function readBytes(file: string, what: string): Promise<Buffer> {
  try {
    return await readInput(file, what);
  } catch (error) {
    throw error instanceof InputError ? new CliError(error.message) : error;
  }
}

/** Refuses `-` (standard input) for more than one of the inputs, before any is read: exit 2. */
export function oneStdin(inputs: readonly { file: string; what: string }[]) {
  try {
    checkOneStdin(inputs);
  } catch (error) {
    throw error instanceof InputError ? new CliError(error.message, 2) : error;
  }
}

export async function assertReadable(file: string, what: string): Promise<void> {
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) throw Object.assign(new Error("folder"), { code: "EISDIR" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `Cannot read the ${what} file ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message}.`,
    );
  }
}

/** The paired test of `--test` in compare and offline; any other name is bad usage (exit 2). */
export function pairedTest(value: string): PairedTest {
  if (!["t", "wilcoxon", "permutation"].includes(value))
    throw new CliError(`--test must be t, wilcoxon or permutation, not "${value}".`, 2);
  return value as PairedTest;
}

/** Refuses an events file with bad lines, the first 20 named by line: nothing is computed (exit 2). */
export function refuseBadEventLines(
  file: string,
  errors: readonly { line: number; message: string }[],
): never {
  for (const e of errors.slice(0, 20)) console.error(`${file}:${e.line}: ${e.message}`);
  throw new CliError(
    `${errors.length} bad event line${errors.length === 1 ? "" : "s"} in ${file}; nothing was computed.`,
    2,
  );
}
