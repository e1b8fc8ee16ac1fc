import { Form, useSearchParams } from "@remix-run/react";

/**
 * The targets field of the fairness section: a GET form, so the targets stay in the URL with the
 * report's other settings (carried along as hidden fields); the server refuses a bad one with a 400.
 */
export function FairnessTargetsForm({ targets }: { targets: string }) {
  const [params] = useSearchParams();
  const kept = [...params].filter(([name]) => name !== "target");
  return (
    <Form method="get" className="inline-form" aria-label="Fairness targets">
      {kept.map(([name, v], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={v} />
      ))}
      <label>
        Targets: <code>attribute=value:share</code>, comma-separated (e.g. <code>gender=f:0.4</code>)
        <input name="target" defaultValue={targets} placeholder="gender=f:0.4" />
      </label>
      <button type="submit">Show targets</button>
    </Form>
  );
}
