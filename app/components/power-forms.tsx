import { Form } from "@remix-run/react";
import type { PowerQuery } from "~/results/power.server";
import type { PowerHistory, PrePeriodRho } from "../../scripts/online/power-history";
import type { Json } from "~/utils/json-type";
import { formatNumber, formatRate } from "~/utils/format";

/** A labelled number field of the power forms; any decimal is accepted (`step="any"`). */
function NumberField({
  id,
  name,
  label,
  min,
  max,
  defaultValue,
  placeholder,
}: {
  id: string;
  name: string;
  label: string;
  min?: number;
  max?: number;
  defaultValue: number | string;
  placeholder?: string;
}) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="number"
        step="any"
        min={min}
        max={max}
        defaultValue={defaultValue}
        placeholder={placeholder}
      />
    </div>
  );
}

/** The A/B test's inputs: metric, baseline and lift, α and power, sessions per convener and ICC. */
export function AbPowerForm({
  query,
  history,
  rhoHistory = null,
}: {
  query: Json<PowerQuery>;
  history: Json<PowerHistory> | null;
  rhoHistory?: Json<PrePeriodRho> | null;
}) {
  return (
    <Form method="get" aria-labelledby="power-ab-heading">
      <h3 id="power-ab-heading">A/B test</h3>
      <input type="hidden" name="power" value="ab" />
      <div className="form-grid">
        <div>
          <label htmlFor="power-metric">Metric</label>
          <select id="power-metric" name="metric" defaultValue={query.metric}>
            <option value="adoption">Sessions with an adoption</option>
            <option value="click">Sessions with a click</option>
          </select>
        </div>
        <NumberField
          id="power-baseline"
          name="baseline"
          label="Baseline (%)"
          min={0}
          max={100}
          defaultValue={query.baseline ?? ""}
          placeholder={history?.baseline != null ? formatRate(history.baseline) : ""}
        />
        <NumberField
          id="power-lift"
          name="lift"
          label="Smallest lift (points)"
          defaultValue={query.lift ?? 5}
        />
        <NumberField id="power-alpha" name="alpha" label="α" min={0} max={1} defaultValue={query.alpha} />
        <NumberField
          id="power-power"
          name="power1"
          label="Power"
          min={0}
          max={1}
          defaultValue={query.power1}
        />
        <NumberField
          id="power-m"
          name="sessionsPerConvener"
          label="Sessions per convener"
          min={1}
          defaultValue={query.sessionsPerConvener ?? ""}
        />
        <NumberField id="power-icc" name="icc" label="ICC" min={0} max={1} defaultValue={query.icc ?? ""} />
        <NumberField
          id="power-rho"
          name="rho"
          label={
            rhoHistory
              ? `CUPED ρ (empty: ${formatNumber(rhoHistory.rho)}, from history)`
              : "CUPED ρ (no history: enter ρ)"
          }
          min={-1}
          max={1}
          defaultValue={query.rho ?? ""}
          placeholder={rhoHistory ? formatNumber(rhoHistory.rho) : "enter ρ"}
        />
        <NumberField
          id="power-slices"
          name="slices"
          label="Slices read (each at α / slices)"
          min={1}
          defaultValue={query.slices}
        />
      </div>
      <button type="submit" className="button-secondary">
        Size the A/B test
      </button>
    </Form>
  );
}

/** The interleaving experiment's inputs: the challenger's win rate worth detecting, α and power. */
export function InterleavingPowerForm({ query }: { query: Json<PowerQuery> }) {
  return (
    <Form method="get" aria-labelledby="power-il-heading">
      <h3 id="power-il-heading">Interleaving</h3>
      <input type="hidden" name="power" value="interleaving" />
      <div className="form-grid">
        <NumberField
          id="power-winrate"
          name="winRate"
          label="Challenger's win rate (%)"
          min={0}
          max={100}
          defaultValue={query.winRate ?? 55}
        />
        <NumberField id="power-il-alpha" name="alpha" label="α" min={0} max={1} defaultValue={query.alpha} />
        <NumberField
          id="power-il-power"
          name="power1"
          label="Power"
          min={0}
          max={1}
          defaultValue={query.power1}
        />
      </div>
      <button type="submit" className="button-secondary">
        Size the interleaving experiment
      </button>
    </Form>
  );
}
