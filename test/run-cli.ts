import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
const root = path.resolve(__dirname, "..");

export interface CliRun {
  code: number;
  stdout: string;
  /** What the command said on stderr besides its progress lines. */
  stderr: string;
  /** Its plain progress lines ("Restoring: 12/40"), which a slow machine may add to any long command. */
  progress: string[];
}

const PROGRESS = /^[^:\n]{1,60}: \d+\/\d+$/;

/** A command's stderr split into its progress lines and the rest (messages a test asserts on). */
export function split(code: number, stdout: string, stderr: string): CliRun {
  const lines = stderr.split("\n");
  const progress = lines.filter((l) => PROGRESS.test(l));
  return { code, stdout, stderr: lines.filter((l) => !PROGRESS.test(l)).join("\n"), progress };
}

/**
 * Runs `assay` from the sources (through tsx), as a user runs the command, with `env` added to this
 * process's environment (the temp folder as its data directory unless said). Never throws: a failure
 * is its exit code and what it printed.
 */
export async function runAssay(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const cli = [
    path.join(root, "node_modules/tsx/dist/cli.mjs"),
    path.join(root, "scripts/cli/assay.ts"),
    ...args,
  ];
  try {
    const { stdout, stderr } = await exec(process.execPath, cli, {
      cwd: root,
      env: { ...process.env, ASSAY_DATA_DIR: os.tmpdir(), ...env },
    });
    return split(0, stdout, stderr);
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return split(e.code, e.stdout, e.stderr);
  }
}
