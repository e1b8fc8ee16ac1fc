import {
  INTERLEAVING_METHODS,
  INTERLEAVING_METHOD_LABELS,
} from "../../../scripts/inputs/interleaving-methods";
import type { InterleavingMethod } from "../../../scripts/inputs/interleaving-methods";
import { errorAttributes, FieldError, ProposalListField, SubjectScopeSelect } from "~/components/form-parts";

/** What the experiment form starts with: empty for a new one, the stored draft when editing. */
export interface ExperimentFormValues {
  key: string;
  name: string;
  kind: "ab" | "interleaving";
  method: InterleavingMethod;
  coverage: number;
  committeeCap: number;
  seed: string;
  subject: string;
  proposals: string[];
  arms: { key: string; system: string; weight: number; isControl: boolean }[];
}

/** A field's errors by its name (`errorsByField` of Conform's `form.allErrors`): shown next to the field. */
type FieldErrors = Record<string, string[] | undefined>;

type SystemOption = { key: string; name: string };
type Arm = ExperimentFormValues["arms"][number];

/** One labelled input of the form, with its errors beside it. */
function Field({
  name,
  label,
  errors,
  ...input
}: { name: string; label: string; errors: FieldErrors } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} {...input} {...errorAttributes(name, errors[name])} />
      <FieldError id={name} errors={errors[name]} />
    </div>
  );
}

/** The experiment's own settings: key, name, kind, coverage, committee cap, seed, scope. */
function ExperimentSettings({
  subjects,
  initial,
  errors,
}: {
  subjects: { id: number; key: string; name: string }[];
  initial?: ExperimentFormValues;
  errors: FieldErrors;
}) {
  return (
    <div className="form-grid">
      <Field
        name="key"
        label="Key"
        required
        pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}"
        defaultValue={initial?.key}
        errors={errors}
      />
      <Field name="name" label="Name" required defaultValue={initial?.name} errors={errors} />
      <div>
        <label htmlFor="kind">Kind</label>
        <select id="kind" name="kind" defaultValue={initial?.kind ?? "ab"} aria-describedby="kind-help">
          <option value="ab">A/B</option>
          <option value="interleaving">Interleaving</option>
        </select>
        <FieldError id="kind" errors={errors.kind} />
      </div>
      <div>
        <label htmlFor="method">Interleaving method</label>
        <select
          id="method"
          name="method"
          defaultValue={initial?.method ?? "team-draft"}
          {...errorAttributes("method", errors.method)}
        >
          {INTERLEAVING_METHODS.map((m) => (
            <option key={m} value={m}>
              {INTERLEAVING_METHOD_LABELS[m]}
            </option>
          ))}
        </select>
        <FieldError id="method" errors={errors.method} />
      </div>
      <Field
        name="coverage"
        label="Coverage (0–1)"
        type="number"
        min={0}
        max={1}
        step={0.01}
        defaultValue={initial?.coverage ?? 1}
        errors={errors}
      />
      <Field
        name="committeeCap"
        label="Committee cap"
        type="number"
        min={1}
        max={50}
        defaultValue={initial?.committeeCap ?? 5}
        errors={errors}
      />
      <Field name="seed" label="Hash seed (default: the key)" defaultValue={initial?.seed} errors={errors} />
      <SubjectScopeSelect subjects={subjects} defaultValue={initial?.subject} />
    </div>
  );
}

/** One arm's row: key, system, weight, and whether it is the control. */
function ArmRow({
  index: i,
  arm,
  systems,
}: {
  index: number;
  arm: Arm | undefined;
  systems: SystemOption[];
}) {
  return (
    <div className="form-grid admin-arm-row">
      <div>
        <label htmlFor={`armKey${i}`}>Arm {i + 1} key</label>
        <input id={`armKey${i}`} name="armKey" defaultValue={arm?.key ?? ""} />
      </div>
      <div>
        <label htmlFor={`armSystem${i}`}>Arm {i + 1} system</label>
        <select id={`armSystem${i}`} name="armSystem" defaultValue={arm?.system ?? systems[i]?.key ?? ""}>
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
          <input type="radio" name="controlIndex" value={i} defaultChecked={arm ? arm.isControl : false} />{" "}
          Arm {i + 1} is the control
        </label>
      </div>
    </div>
  );
}

/**
 * The fields of the experiment form (inside the caller's Form, which adds the CSRF input and the button),
 * read by `experimentFormSchema` / `experimentPageSchema` (scripts/inputs/experiments.ts) on both sides.
 */
export function ExperimentFields({
  systems,
  subjects,
  initial,
  errors = {},
}: {
  systems: SystemOption[];
  subjects: { id: number; key: string; name: string }[];
  initial?: ExperimentFormValues;
  errors?: FieldErrors;
}) {
  const arms = initial?.arms ?? [
    { key: "A", system: systems[0]?.key ?? "", weight: 0.5, isControl: true },
    { key: "B", system: systems[1]?.key ?? "", weight: 0.5, isControl: false },
  ];
  // One blank row more than the arms there are (at most 10), so an arm can be added.
  const rows = Array.from({ length: Math.min(10, Math.max(3, arms.length + 1)) }, (_, i) => arms[i]);
  const armErrors = [...(errors.arms ?? []), ...(errors.control ?? [])];
  return (
    <>
      <ExperimentSettings subjects={subjects} initial={initial} errors={errors} />
      <p id="kind-help" className="muted">
        Kind: A/B shows each convener their arm&apos;s system; interleaving shows every session one list
        drafted in turns from the arms&apos; systems, whose weights then only split the logging. The
        interleaving method (ignored for A/B): team-draft or probabilistic interleaving of exactly two arms
        (the control and the challenger), or team-draft multileaving of three or more.
      </p>
      <ProposalListField defaultValue={initial?.proposals} errors={errors.proposals ?? errors.subject} />
      <fieldset className="admin-form-block" {...errorAttributes("arms", armErrors)}>
        <legend>Arms (weights sum to 1)</legend>
        {rows.map((arm, i) => (
          <ArmRow key={i} index={i} arm={arm} systems={systems} />
        ))}
        <FieldError id="arms" errors={armErrors} />
      </fieldset>
    </>
  );
}
