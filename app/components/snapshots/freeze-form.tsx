import { getFormProps, useForm } from "@conform-to/react";
import { PAGE_B } from "../../../scripts/lib/defaults";
import { Form, useNavigation } from "@remix-run/react";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { MAX_RESAMPLES, MIN_RESAMPLES } from "~/schemas/bootstrap";
import { freezeSchema } from "~/schemas/snapshots";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, type FormAnswer } from "~/forms/forms";

/** Controls fill their grid cell: a select as wide as its longest option would overlap its neighbour. */
const fill = { width: "100%" };

/** The fields this form shows; the freeze buttons of the result pages post the others (intervals, K). */
const onThisForm = ["kind", "campaign", "experiment", "B", "seed"];

type Errors = Record<string, string[] | undefined>;

/** What to freeze: the kind of result, and which campaign or experiment. */
function ResultChoice({
  campaigns,
  experiments,
  errors,
}: {
  campaigns: { id: number; name: string }[];
  experiments: { key: string; name: string }[];
  errors: Errors;
}) {
  return (
    <>
      <div>
        <label htmlFor="kind">Result</label>
        <select
          id="kind"
          style={fill}
          name="kind"
          defaultValue="offline"
          {...errorAttributes("kind", errors.kind)}
        >
          <option value="offline">Offline report (tier 1)</option>
          <option value="expert">Expert campaign (tier 2)</option>
          <option value="online">Online experiment (tier 3)</option>
          <option value="clicks">Click models (experiment)</option>
        </select>
        <FieldError id="kind" errors={errors.kind} />
      </div>
      <div>
        <label htmlFor="campaign">Campaign (expert)</label>
        <select
          id="campaign"
          style={fill}
          name="campaign"
          defaultValue=""
          {...errorAttributes("campaign", errors.campaign)}
        >
          <option value="">—</option>
          {campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <FieldError id="campaign" errors={errors.campaign} />
      </div>
      <div>
        <label htmlFor="experiment">Experiment (online, click models)</label>
        <select
          id="experiment"
          style={fill}
          name="experiment"
          defaultValue=""
          {...errorAttributes("experiment", errors.experiment)}
        >
          <option value="">—</option>
          {experiments.map((e) => (
            <option key={e.key} value={e.key}>
              {e.name}
            </option>
          ))}
        </select>
        <FieldError id="experiment" errors={errors.experiment} />
      </div>
    </>
  );
}

/**
 * Freezes a result: its kind, which campaign or experiment, and the bootstrap's resamples and seed. A
 * freeze button's refusal lands here too, its errors in the form's own place.
 */
export function FreezeForm({
  campaigns,
  experiments,
  answer,
}: {
  campaigns: { id: number; name: string }[];
  experiments: { key: string; name: string }[];
  answer: FormAnswer | null | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const [form] = useForm({
    id: "freeze-form",
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseForm(formData, freezeSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errors: Errors = errorsByField(form.allErrors);
  const elsewhere = Object.entries(errors)
    .filter(([name]) => !onThisForm.includes(name))
    .flatMap(([, messages]) => messages ?? []);
  return (
    <Form method="post" className="panel" aria-label="Freeze snapshot" {...getFormProps(form)}>
      <CsrfInput />
      <div className="form-grid">
        <ResultChoice campaigns={campaigns} experiments={experiments} errors={errors} />
        <div>
          <label htmlFor="B">Resamples</label>
          <input
            id="B"
            style={fill}
            name="B"
            type="number"
            min={MIN_RESAMPLES}
            max={MAX_RESAMPLES}
            defaultValue={PAGE_B}
            {...errorAttributes("B", errors.B)}
          />
          <FieldError id="B" errors={errors.B} />
        </div>
        <div>
          <label htmlFor="seed">Seed</label>
          <input
            id="seed"
            style={fill}
            name="seed"
            defaultValue=""
            placeholder="as on its page"
            {...errorAttributes("seed", errors.seed)}
          />
          <FieldError id="seed" errors={errors.seed} />
        </div>
        <div>
          <button type="submit" disabled={busy}>
            {busy ? "Computing…" : "Freeze snapshot"}
          </button>
        </div>
      </div>
      <FormErrors errors={[...formErrorsOf(answer), ...elsewhere]} />
    </Form>
  );
}
