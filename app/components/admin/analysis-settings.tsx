import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { experimentPageSchema } from "../../../scripts/inputs/experiments";
import { MAX_PRE_PERIOD_DAYS } from "../../../scripts/inputs/analysis-settings";
import { guardrailLine, guardrailMetrics, type AnyGuardrail } from "../../../scripts/inputs/guardrails";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { errorsByField, formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

export interface AnalysisSettingsValues {
  engine: "frequentist" | "bayesian";
  cuped: boolean;
  prePeriodDays: number;
  priorMean: number;
  priorVariance: number | null;
  guardrails: readonly AnyGuardrail[];
}

/** The stored guardrails as the form's text, one a line, tolerances and shares in %. */
const guardrailLines = (gs: readonly AnyGuardrail[]) => gs.map(guardrailLine).join("\n");

/**
 * How the A/B result is read: engine, CUPED and its pre-period, the Bayesian prior. Editable at any
 * status, since it changes the reading, not the data; snapshots record what was in force.
 */
export function AnalysisSettingsForm({
  settings,
  answer,
}: {
  settings: AnalysisSettingsValues;
  answer: FormAnswer | null | undefined;
}) {
  const result = resultFor(answer, "analysis");
  const [form] = useForm({
    id: "analysis-settings-form",
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, experimentPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errors = errorsByField(form.allErrors);
  return (
    <section className="panel admin-form-panel" aria-labelledby="analysis-settings">
      <h2 id="analysis-settings">How the result is read</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <label>
          Engine
          <select name="engine" defaultValue={settings.engine} {...errorAttributes("engine", errors.engine)}>
            <option value="frequentist">Frequentist (p-values)</option>
            <option value="bayesian">Bayesian (chance to win)</option>
          </select>
        </label>
        <FieldError id="engine" errors={errors.engine} />
        <label>
          <input type="checkbox" name="cuped" defaultChecked={settings.cuped} /> CUPED: adjust each metric by
          the same metric of the same convener before the start
        </label>
        <label>
          Pre-period (days before the start)
          <input
            name="prePeriodDays"
            type="number"
            min={1}
            max={MAX_PRE_PERIOD_DAYS}
            defaultValue={settings.prePeriodDays}
            {...errorAttributes("prePeriodDays", errors.prePeriodDays)}
          />
        </label>
        <FieldError id="prePeriodDays" errors={errors.prePeriodDays} />
        <fieldset>
          <legend>Bayesian prior on the relative effect</legend>
          <label>
            Mean
            <input
              name="priorMean"
              inputMode="decimal"
              defaultValue={settings.priorMean}
              {...errorAttributes("priorMean", errors.priorMean)}
            />
          </label>
          <FieldError id="priorMean" errors={errors.priorMean} />
          <label>
            Variance (empty: a flat prior, GrowthBook's default)
            <input
              name="priorVariance"
              inputMode="decimal"
              defaultValue={settings.priorVariance ?? ""}
              {...errorAttributes("priorVariance", errors.priorVariance)}
            />
          </label>
          <FieldError id="priorVariance" errors={errors.priorVariance} />
        </fieldset>
        <GuardrailsField guardrails={settings.guardrails} errors={errors.guardrails} />
        <FormErrors errors={result ? formErrorsOf(answer) : null} />
        <button type="submit" name="intent" value="analysis">
          Save settings
        </button>
      </Form>
    </section>
  );
}

/**
 * The guardrails textarea: names the known metrics, since an unknown one is refused. The syntax is
 * help text under a short label, and the lines are code: monospace, never broken inside a guardrail.
 */
function GuardrailsField({ guardrails, errors }: { guardrails: readonly AnyGuardrail[]; errors?: string[] }) {
  const text = guardrailLines(guardrails);
  const invalid = errorAttributes("guardrails", errors);
  return (
    <div className="field guardrails-field">
      <label htmlFor="guardrails">Guardrails</label>
      <p id="guardrails-help" className="muted field-help">
        One <code>metric:direction:tolerance</code> a line, the direction being the harmful one (e.g.{" "}
        <code>minutesToFinish:increase:5%</code>); metrics: {Object.keys(guardrailMetrics).join(", ")}. Or a
        group&apos;s share of adopted candidates, <code>share:attribute=value:min:share</code> (e.g.{" "}
        <code>share:gender=f:min:35%</code>).
      </p>
      <textarea
        id="guardrails"
        name="guardrails"
        className="code-input"
        rows={Math.max(6, text.split("\n").length + 2)}
        spellCheck={false}
        wrap="off"
        defaultValue={text}
        {...invalid}
        aria-describedby={["guardrails-help", invalid["aria-describedby"]].filter(Boolean).join(" ")}
      />
      <FieldError id="guardrails" errors={errors} />
    </div>
  );
}
