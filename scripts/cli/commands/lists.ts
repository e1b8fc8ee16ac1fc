import type { Command } from "commander";
import { loadOfflineInput } from "../../../db/catalog/offline-input";
import { withDatabase } from "../database";
import { CliError } from "../errors";

export function registerLists(program: Command) {
  const lists = program.command("lists").description("a system's ranked lists");
  lists
    .command("export")
    .description("a system's lists as a TREC run (qid Q0 docid rank score tag), for trec_eval and assay eval")
    .requiredOption("--system <key>", "the system")
    .option("--variant <name>", "the query variant", "default")
    .option("--format <format>", "trec", "trec")
    .action(exportLists);
}

/**
 * One line per list item, proposals in id order, items in rank order. The score is the list's own
 * when every item of the list has one; otherwise 1/rank for the whole list, so that trec_eval, which
 * orders by score, reads the list in the system's order.
 */
async function exportLists(o: { system: string; variant: string; format: string }) {
  if (o.format !== "trec") throw new CliError(`--format ${o.format} is not known; lists export as trec.`, 2);
  const input = await withDatabase((db) => loadOfflineInput(db, { systems: [o.system] }));
  const system = input.systems.find((s) => s.key === o.system);
  if (!system) throw new CliError(`Unknown system ${o.system}.`, 2);
  const proposals = [...system.lists.keys()].filter((p) => system.lists.get(p)!.has(o.variant)).sort();
  if (proposals.length === 0) {
    const variants = [...new Set([...system.lists.values()].flatMap((v) => [...v.keys()]))].sort();
    throw new CliError(
      `System ${o.system} has no lists under variant ${o.variant}; its variants: ${variants.join(", ") || "none"}.`,
      2,
    );
  }
  const tag = o.system.replace(/\s+/g, "_");
  const out: string[] = [];
  for (const p of proposals) {
    const items = system.lists.get(p)!.get(o.variant)!;
    const scores = system.scores?.get(p)?.get(o.variant);
    const scored = scores !== undefined && scores.every((s) => s !== null && Number.isFinite(s));
    items.forEach((c, i) => out.push(`${p} Q0 ${c} ${i + 1} ${scored ? scores[i] : 1 / (i + 1)} ${tag}`));
  }
  process.stdout.write(out.join("\n") + "\n");
}
