/** A failure the user can fix: printed as one sentence, exit code 1 (2 for bad usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
