import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { listSubjects, listSystems } from "../../db/catalog";
import { createExperiment, ExperimentError, listExperiments } from "../../db/experiments";
import { experimentSchema } from "~/schemas/experiments";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ActionNotice, SubjectScopeSelect } from "~/components/form-parts";
import { CsrfInput } from "~/utils/csrf";

export const meta: MetaFunction = () => [{ title: "Experiments · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [experiments, systems, subjects] = await Promise.all([listExperiments(getDb()), listSystems(getDb()), listSubjects(getDb())]);
  return json({ experiments, systems: systems.map((s) => ({ key: s.key, name: s.name })), subjects });
}

/** The form posts arms as parallel fields armKey/armSystem/armWeight; blank rows are ignored. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const keys = form.getAll("armKey").map(String);
  const systems = form.getAll("armSystem").map(String);
  const weights = form.getAll("armWeight").map(String);
  const rows = keys.map((key, i) => ({ key, system: systems[i], weight: weights[i] }));
  const controlRow = rows[Number(form.get("controlIndex") ?? 0)];
  const arms = rows.filter((a) => a.key.trim() !== "");
  const subject = String(form.get("subject") ?? "");
  const listed = String(form.get("proposals") ?? "").split(/[\s,]+/).filter(Boolean);
  const parsed = experimentSchema.safeParse({
    key: form.get("key"),
    name: form.get("name"),
    arms,
    control: controlRow?.key.trim() || arms[0]?.key,
    coverage: form.get("coverage") || 1,
    seed: form.get("seed") || undefined,
    committeeCap: form.get("committeeCap") || 5,
    scope: listed.length ? "list" : subject ? "subject" : "all",
    subject: subject || undefined,
    proposals: listed.length ? listed : undefined,
  });
  if (!parsed.success) return json({ errors: parsed.error.issues.map((i) => i.message) }, { status: 400 });
  try {
    await createExperiment(getDb(), admin, parsed.data);
  } catch (error) {
    if (error instanceof ExperimentError) return json({ errors: [error.message] }, { status: 400 });
    throw error;
  }
  return redirect(`/admin/experiments/${encodeURIComponent(parsed.data.key)}`);
}

export default function Experiments() {
  const { experiments, systems, subjects } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1>Experiments</h1>
      {experiments.length === 0 ? (
        <div className="empty">No experiments yet. Create one below, or with `npm run assay -- experiment create`.</div>
      ) : (
        <table aria-label="Experiments">
          <thead>
            <tr>
              <th>Key</th>
              <th>Name</th>
              <th>Status</th>
              <th className="num">Coverage</th>
              <th className="num">Units</th>
              <th className="num">Events</th>
            </tr>
          </thead>
          <tbody>
            {experiments.map((e) => (
              <tr key={e.id}>
                <td>
                  <Link to={`/admin/experiments/${encodeURIComponent(e.key)}`}>{e.key}</Link>
                </td>
                <td>{e.name}</td>
                <td>{e.status}</td>
                <td className="num">{e.coverage}</td>
                <td className="num">{e.units}</td>
                <td className="num">{e.events.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section className="panel" aria-labelledby="new-experiment" style={{ marginTop: "1.5rem" }}>
        <h2 id="new-experiment" style={{ marginTop: 0 }}>
          New experiment
        </h2>
        <Form method="post">
          <CsrfInput />
          <div className="form-grid">
            <div>
              <label htmlFor="key">Key</label>
              <input id="key" name="key" required pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}" />
            </div>
            <div>
              <label htmlFor="name">Name</label>
              <input id="name" name="name" required />
            </div>
            <div>
              <label htmlFor="coverage">Coverage (0–1)</label>
              <input id="coverage" name="coverage" type="number" min={0} max={1} step={0.01} defaultValue={1} />
            </div>
            <div>
              <label htmlFor="committeeCap">Committee cap</label>
              <input id="committeeCap" name="committeeCap" type="number" min={1} max={50} defaultValue={5} />
            </div>
            <div>
              <label htmlFor="seed">Hash seed (default: the key)</label>
              <input id="seed" name="seed" />
            </div>
            <SubjectScopeSelect subjects={subjects} />
          </div>
          <div className="field" style={{ marginTop: "0.8rem" }}>
            <label htmlFor="proposals">Or only these proposals (ids, separated by spaces or commas)</label>
            <textarea id="proposals" name="proposals" rows={2} style={{ width: "100%" }} />
          </div>
          <fieldset style={{ marginTop: "0.8rem" }}>
            <legend>Arms (weights sum to 1)</legend>
            {[0, 1, 2].map((i) => (
              <div key={i} className="form-grid" style={{ marginBottom: "0.4rem" }}>
                <div>
                  <label htmlFor={`armKey${i}`}>Arm {i + 1} key</label>
                  <input id={`armKey${i}`} name="armKey" defaultValue={i < 2 ? ["A", "B"][i] : ""} />
                </div>
                <div>
                  <label htmlFor={`armSystem${i}`}>Arm {i + 1} system</label>
                  <select id={`armSystem${i}`} name="armSystem" defaultValue={systems[i]?.key ?? ""}>
                    {systems.map((s) => (
                      <option key={s.key} value={s.key}>
                        {s.name} ({s.key})
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor={`armWeight${i}`}>Arm {i + 1} weight</label>
                  <input id={`armWeight${i}`} name="armWeight" type="number" step={0.01} min={0} max={1} defaultValue={i < 2 ? 0.5 : ""} />
                </div>
                <div>
                  <label>
                    <input type="radio" name="controlIndex" value={i} defaultChecked={i === 0} /> Control
                  </label>
                </div>
              </div>
            ))}
          </fieldset>
          <ActionNotice errors={data?.errors} />
          <button type="submit" disabled={busy}>
            Create experiment
          </button>
        </Form>
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
