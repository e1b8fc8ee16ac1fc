import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
const root = path.resolve(__dirname, "..");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
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
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
