import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { listSubjects, listSystems } from "~/data/catalog.server";
import { createExperiment, ExperimentError, listExperiments } from "~/data/experiments.server";
import { experimentsWithFailingGuardrail } from "~/data/results.server";
import { runInWorkerPool } from "~/results/worker-pool.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormErrors } from "~/components/form-parts";
import { ExperimentFields } from "~/components/admin/experiment-form";
import { experimentFormSchema } from "../../scripts/inputs/experiments";
import { errorsByField, formErrorsOf, parseForm } from "~/forms/forms";
import { answer, refuse } from "~/forms/forms.server";
import { CsrfInput } from "~/security/csrf";
import { PowerPanel } from "~/components/power-panel";
import { controlHistory, historyRho, powerAnswer, powerQuerySchema } from "~/results/power.server";
import { parseQuery } from "~/utils/route-params.server";
import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatRate } from "~/utils/format";
import { Badge } from "~/components/badge";

export const meta: MetaFunction = () => [{ title: "Experiments · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const query = parseQuery(request, powerQuerySchema);
  const [experiments, systems, subjects, history, rhoHistory] = await Promise.all([
    listExperiments(getDb()),
    listSystems(getDb()),
    listSubjects(getDb()),
    controlHistory(getDb()),
    historyRho(getDb()),
  ]);
  const answer = powerAnswer(query, history, rhoHistory);
  const failing = await experimentsWithFailingGuardrail(
    getDb(),
    experiments.filter((e) => e.status !== "draft").map((e) => e.key),
    runInWorkerPool,
  );
  // Inputs that cannot be sized are the request's fault: the page says why, with a 400.
  return json(
    {
      experiments: experiments.map((e) => ({ ...e, failingGuardrail: failing.has(e.key) })),
      systems: systems.map((s) => ({ key: s.key, name: s.name })),
      subjects,
      power: { query, answer, history, rhoHistory },
    },
    { status: answer?.error ? 400 : 200 },
  );
}

/** The form's fields go through the one experiment schema (`experimentFormSchema`), shared with editing a draft. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), experimentFormSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400 });
  try {
    await createExperiment(getDb(), admin, submission.value);
  } catch (error) {
    if (error instanceof ExperimentError) return refuse(submission, null, error.message);
    throw error;
  }
  return redirect(`/admin/experiments/${encodeURIComponent(submission.value.key)}`);
}

/** "A/B", "multileaving", or the interleaving method ("team-draft interleaving"). */
function kindLabel(e: { kind: string; method: string | null }): string {
  if (e.kind !== "interleaving") return "A/B";
  return e.method === "multileaving" ? "multileaving" : `${e.method} interleaving`;
}

export default function Experiments() {
  const { experiments, systems, subjects, power } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form] = useForm({
    id: "new-experiment-form",
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, experimentFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <h1>Experiments</h1>
      {experiments.length === 0 ? (
        <div className="empty">
          No experiments yet. Create one below, or with `npm run assay -- experiment create`.
        </div>
      ) : (
        <TableScroll label="Experiments">
          <table aria-label="Experiments">
            <thead>
              <tr>
                <th>Key</th>
                <th>Name</th>
                <th>Kind</th>
                <th>Status</th>
                <th className="num">Coverage (of conveners)</th>
                <th className="num">Conveners exposed</th>
                <th className="num">Events</th>
              </tr>
            </thead>
            <tbody>
              {experiments.map((e) => (
                <tr key={e.id}>
                  <td className="id">
                    <Link to={`/admin/experiments/${encodeURIComponent(e.key)}`}>{e.key}</Link>
                  </td>
                  <td>{e.name}</td>
                  <td>{kindLabel(e)}</td>
                  <td>
                    {e.status}
                    {e.failingGuardrail ? (
                      <>
                        {" "}
                        <Badge tone="failing">guardrail failing</Badge>
                      </>
                    ) : null}
                  </td>
                  <td className="num">{formatRate(e.coverage)}</td>
                  <td className="num">{formatCount(e.units)}</td>
                  <td className="num">{formatCount(e.events)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <section className="panel admin-form-panel" aria-labelledby="new-experiment">
        <h2 id="new-experiment" style={{ marginTop: 0 }}>
          New experiment
        </h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <ExperimentFields systems={systems} subjects={subjects} errors={errorsByField(form.allErrors)} />
          <FormErrors errors={formErrorsOf(data)} />
          <button type="submit" disabled={busy}>
            Create experiment
          </button>
        </Form>
      </section>
      <PowerPanel
        query={power.query}
        answer={power.answer}
        history={power.history}
        rhoHistory={power.rhoHistory}
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
