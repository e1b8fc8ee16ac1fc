import type { Db, Sql } from "../platform/client";
import type { ExperimentWithArms } from "./experiments";
import { forEachClickSession } from "./click-sessions";
import { loadOfflineInput } from "../catalog/offline-input";
import type { RawSession } from "../../scripts/clicks/log";
import type { ClickModelSettings, ExperimentClicksInput } from "../../scripts/clicks/experiment-report";
import { PAGE_B } from "../../scripts/lib/defaults";
import { packOfflineInput } from "../../scripts/offline/pack";

/** What the page fits, as `assay clicks` defaults: a quarter of the sessions held out, 50 EM passes, ranks 1–10. */
export const CLICK_MODEL_DEFAULTS = { testShare: 0.25, iterations: 50, maxRank: 10 } as const;

/**
 * The page's settings for an experiment: its own seed splits the sessions and seeds the intervals'
 * bootstrap, as its dashboard's bootstrap uses it; the page's B unless a snapshot asks for another.
 */
export function clickModelSettings(
  experiment: Pick<ExperimentWithArms, "seed">,
  seed?: string,
  B: number = PAGE_B,
): ClickModelSettings {
  return { seed: seed ?? experiment.seed, ...CLICK_MODEL_DEFAULTS, B };
}

/**
 * Everything `experimentClicks` needs, read on the event loop: the experiment's convener sessions as
 * `assay clicks export` writes them (with each one's arm), the historical committees as labels and the
 * arms' systems' lists for K_hit. The result is computed wherever the caller runs it (the worker pool).
 */
export async function loadExperimentClicksInput(
  db: Db,
  experiment: ExperimentWithArms,
  settings: ClickModelSettings,
): Promise<ExperimentClicksInput> {
  const sessions: RawSession[] = [];
  const arms: string[] = [];
  const units: string[] = [];
  // The cursor needs postgres.js itself; drizzle's handle carries it.
  const sql = (db as Db & { $client: Sql }).$client;
  await forEachClickSession(sql, experiment.id, settings.maxRank, (page, arm, unit) => {
    sessions.push(page);
    arms.push(arm);
    units.push(unit);
  });
  const systems = [...new Set(experiment.arms.map((a) => a.systemKey))];
  const offline = await loadOfflineInput(db, { systems });
  const shown = new Set(sessions.map((s) => s.query));
  return {
    experiment: { key: experiment.key, name: experiment.name },
    settings,
    sessions,
    arms,
    units,
    armSystems: experiment.arms.map((a) => ({ arm: a.key, system: a.systemKey, control: a.isControl })),
    committees: [...offline.gold]
      .filter(([p]) => shown.has(p))
      .map(([p, members]) => [p, [...members].sort()]),
    offline: offline.systems.length && offline.gold.size ? packOfflineInput(offline) : null,
  };
}
