import { experimentSchema } from "../../../scripts/inputs/experiments";
import { ProposalListField, SubjectScopeSelect } from "~/components/form-parts";

/** What the experiment form starts with: empty for a new one, the stored draft when editing. */
export interface ExperimentFormValues {
  key: string;
  name: string;
  kind: "ab" | "interleaving";
  coverage: number;
  committeeCap: number;
  seed: string;
  subject: string;
  proposals: string[];
  arms: { key: string; system: string; weight: number; isControl: boolean }[];
}

/**
 * Reads the experiment form (arms as parallel fields armKey/armSystem/armWeight, blank rows ignored)
 * through the one experiment schema: the create and the edit action share it.
 */
export function readExperimentForm(form: FormData) {
  const keys = form.getAll("armKey").map(String);
  const systems = form.getAll("armSystem").map(String);
  const weights = form.getAll("armWeight").map(String);
  const rows = keys.map((key, i) => ({ key, system: systems[i], weight: weights[i] }));
  const controlRow = rows[Number(form.get("controlIndex") ?? 0)];
  const arms = rows.filter((a) => a.key.trim() !== "");
  const subject = String(form.get("subject") ?? "");
  const listed = String(form.get("proposals") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  return experimentSchema.safeParse({
    key: form.get("key"),
    name: form.get("name"),
    kind: form.get("kind") || "ab",
    arms,
    control: controlRow?.key.trim() || arms[0]?.key,
    coverage: form.get("coverage") || 1,
    seed: form.get("seed") || undefined,
    committeeCap: form.get("committeeCap") || 5,
    scope: listed.length ? "list" : subject ? "subject" : "all",
    subject: subject || undefined,
    proposals: listed.length ? listed : undefined,
  });
}

/** The fields of the experiment form (inside the caller's Form, which adds the CSRF input and the button). */
export function ExperimentFields({
  systems,
  subjects,
  initial,
}: {
  systems: { key: string; name: string }[];
  subjects: { id: number; key: string; name: string }[];
  initial?: ExperimentFormValues;
}) {
  const arms = initial?.arms ?? [
    { key: "A", system: systems[0]?.key ?? "", weight: 0.5, isControl: true },
    { key: "B", system: systems[1]?.key ?? "", weight: 0.5, isControl: false },
  ];
  // One blank row more than the arms there are (at most 10), so an arm can be added.
  const rows = Array.from({ length: Math.min(10, Math.max(3, arms.length + 1)) }, (_, i) => arms[i]);
  return (
    <>
      <div className="form-grid">
        <div>
          <label htmlFor="key">Key</label>
          <input
            id="key"
            name="key"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}"
            defaultValue={initial?.key}
          />
        </div>
        <div>
          <label htmlFor="name">Name</label>
          <input id="name" name="name" required defaultValue={initial?.name} />
        </div>
        <div>
          <label htmlFor="kind">Kind</label>
          <select id="kind" name="kind" defaultValue={initial?.kind ?? "ab"} aria-describedby="kind-help">
            <option value="ab">A/B</option>
            <option value="interleaving">Interleaving</option>
          </select>
        </div>
        <div>
          <label htmlFor="coverage">Coverage (0–1)</label>
          <input
            id="coverage"
            name="coverage"
            type="number"
            min={0}
            max={1}
            step={0.01}
            defaultValue={initial?.coverage ?? 1}
          />
        </div>
        <div>
          <label htmlFor="committeeCap">Committee cap</label>
          <input
            id="committeeCap"
            name="committeeCap"
            type="number"
            min={1}
            max={50}
            defaultValue={initial?.committeeCap ?? 5}
          />
        </div>
        <div>
          <label htmlFor="seed">Hash seed (default: the key)</label>
          <input id="seed" name="seed" defaultValue={initial?.seed} />
        </div>
        <SubjectScopeSelect subjects={subjects} defaultValue={initial?.subject} />
      </div>
      <p id="kind-help" className="muted">
        Kind: A/B shows each convener their arm&apos;s system; interleaving shows every session one list
        drafted in turns from exactly two arms&apos; systems (the control and the challenger), whose weights
        then only split the logging.
      </p>
      <ProposalListField defaultValue={initial?.proposals} />
      <fieldset className="admin-form-block">
        <legend>Arms (weights sum to 1)</legend>
        {rows.map((arm, i) => (
          <div key={i} className="form-grid admin-arm-row">
            <div>
              <label htmlFor={`armKey${i}`}>Arm {i + 1} key</label>
              <input id={`armKey${i}`} name="armKey" defaultValue={arm?.key ?? ""} />
            </div>
            <div>
              <label htmlFor={`armSystem${i}`}>Arm {i + 1} system</label>
              <select
                id={`armSystem${i}`}
                name="armSystem"
                defaultValue={arm?.system ?? systems[i]?.key ?? ""}
              >
                {systems.map((s) => (
                  <option key={s.key} value={s.key}>
                    {s.name} ({s.key})
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`armWeight${i}`}>Arm {i + 1} weight</label>
              <input
                id={`armWeight${i}`}
                name="armWeight"
                type="number"
                step={0.01}
                min={0}
                max={1}
                defaultValue={arm?.weight ?? ""}
              />
            </div>
            <div>
              <label>
                <input
                  type="radio"
                  name="controlIndex"
                  value={i}
                  defaultChecked={arm ? arm.isControl : false}
                />{" "}
                Arm {i + 1} is the control
              </label>
            </div>
          </div>
        ))}
      </fieldset>
    </>
  );
}
