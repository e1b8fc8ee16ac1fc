import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/**
 * Whether a new password is too easy to guess, as a sentence, or null. The length (at least 12) is the
 * form's schema's; this is the server's second look, against zxcvbn's list of common passwords and
 * keyboard patterns (its dictionary is ~1 MB, so it stays out of the browser). Score 3 of 4 is "safely
 * unguessable: moderate protection from offline slow-hash attacks", which an scrypt hash is.
 */
let checker: ZxcvbnFactory | undefined;

export async function passwordProblem(password: string, related: string[] = []): Promise<string | null> {
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  // The person's own name and email are the first words an attacker tries.
  const result = await checker.check(password, related.filter(Boolean));
  if (result.score >= 3) return null;
  return "This password is too easy to guess: it is, or is close to, a common password or pattern (or your name or email). Use a longer, less predictable one, such as three or four unrelated words.";
}
