import { Form } from "@remix-run/react";

/**
 * Which intervals an A/B page shows for the differences (a GET form: `?intervals=…&nStar=…`): fixed
 * bootstrap ones for one look, or sequential ones valid at every look, tuned by N*.
 */
export function IntervalsForm({ view }: { view: { intervals: "fixed" | "sequential"; nStar: number } }) {
  return (
    <Form method="get" className="toolbar" aria-label="Intervals shown">
      <div>
        <label htmlFor="intervals">Intervals of the differences</label>
        <select id="intervals" name="intervals" defaultValue={view.intervals}>
          <option value="fixed">Fixed (bootstrap, one look)</option>
          <option value="sequential">Sequential (always valid, daily looks)</option>
        </select>
      </div>
      <div>
        <label htmlFor="nStar">Sequential tuning N* (conveners)</label>
        <input id="nStar" name="nStar" type="number" min={1} step={1} defaultValue={view.nStar} />
      </div>
      <button type="submit" className="button-secondary">
        Show
      </button>
    </Form>
  );
}
