import type { Submission } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { listSubjects, listSystems } from "~/data/catalog.server";
import {
  createApiKey,
  deleteExperiment,
  experimentDraftInput,
  ExperimentError,
  getExperiment,
  listApiKeys,
  revokeApiKey,
  restartExperiment,
  setExperimentStatus,
  updateAnalysisSettings,
  updateExperiment,
} from "~/data/experiments.server";
import { AnalysisSettingsForm } from "~/components/admin/analysis-settings";
import { experimentDashboard } from "~/results/dashboards.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ActionNotice } from "~/components/form-parts";
import { ApiKeysSection } from "~/components/admin/api-keys";
import { EditExperimentDraft, ExperimentStatusForm } from "~/components/admin/experiment-draft";
import { ExperimentReport } from "~/components/admin/experiment-report";
import { experimentSummary } from "~/components/admin/experiment-summary";
import { AfterLaunchPower, PowerPanel } from "~/components/power-panel";
import { afterLaunchPower, controlHistory, powerAnswer, powerQuerySchema } from "~/results/power.server";
import { parseQuery } from "~/utils/route-params.server";
import { experimentPageSchema, type ExperimentPageForm } from "../../scripts/inputs/experiments";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent, refuse } from "~/forms/forms.server";
import { Badge, statusTone } from "~/components/badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.experiment.key ?? "Experiment"} · Assay` },
];

async function load(key: string | undefined) {
  const experiment = await getExperiment(getDb(), key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${key}.` }, { status: 404 });
  return experiment;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { daily: _daily, ...dashboard } = await experimentDashboard(params.key);
  const db = getDb();
  const experiment = dashboard.experiment;
  // Only a draft can be edited, so only a draft's page carries the prefilled form and its choices.
  const draft =
    experiment.status === "draft"
      ? {
          initial: {
            ...(await experimentDraftInput(db, experiment)),
            key: experiment.key,
            name: experiment.name,
            kind: experiment.kind,
            method: experiment.method,
            coverage: experiment.coverage,
            committeeCap: experiment.committeeCap,
            seed: experiment.seed,
            arms: experiment.arms.map((a) => ({
              key: a.key,
              system: a.systemKey,
              weight: a.weight,
              isControl: a.isControl,
            })),
          },
          systems: (await listSystems(db)).map((s) => ({ key: s.key, name: s.name })),
          subjects: await listSubjects(db),
        }
      : null;
  // The power section sits beside the draft's form; after launch, what the data so far can detect.
  const query = parseQuery(request, powerQuerySchema);
  const history = draft ? await controlHistory(db) : null;
  const answer = draft ? powerAnswer(query, history) : null;
  const power = draft ? { query, answer, history } : null;
  const soFar =
    experiment.kind === "ab" && experiment.status !== "draft" && dashboard.report
      ? await afterLaunchPower(db, experiment)
      : null;
  return json(
    { ...dashboard, draft, power, soFar, keys: await listApiKeys(db, experiment.id) },
    { status: answer?.error ? 400 : 200 },
  );
}

type FormOf<Intent extends ExperimentPageForm["intent"]> = Extract<ExperimentPageForm, { intent: Intent }>;

/** One handler per form of the page, by its intent; each answers in the one form-answer shape. */
function experimentHandlers(
  submission: Submission<ExperimentPageForm>,
  admin: Awaited<ReturnType<typeof requireAdmin>>,
  experiment: { id: number; key: string },
) {
  const db = getDb();
  const setStatus = async (intent: "start" | "stop") => {
    await setExperimentStatus(db, admin, experiment.key, intent === "start" ? "running" : "stopped");
    const done =
      intent === "start"
        ? "Started: events are accepted."
        : "Stopped: events dated after the stop are refused. Restart to accept them again.";
    return answer(submission, intent, { done }, { newKey: null });
  };
  return {
    update: async ({ intent: _, ...input }: FormOf<"update">) => {
      const updated = await updateExperiment(db, admin, experiment.key, input);
      return redirect(`/admin/experiments/${encodeURIComponent(updated.key)}`);
    },
    delete: async () => {
      await deleteExperiment(db, admin, experiment.key);
      return redirect("/admin/experiments");
    },
    start: () => setStatus("start"),
    stop: () => setStatus("stop"),
    restart: async ({ intent }: FormOf<"restart">) => {
      await restartExperiment(db, admin, experiment.key);
      return answer(
        submission,
        intent,
        { done: "Restarted: events are accepted again and every unit keeps its arm." },
        { newKey: null },
      );
    },
    createKey: async ({ intent, expiresInDays }: FormOf<"createKey">) => {
      const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : undefined;
      const created = await createApiKey(db, admin, experiment.key, { expiresAt });
      return answer(submission, intent, { resetForm: true }, { newKey: created.key });
    },
    analysis: async ({ intent, ...settings }: FormOf<"analysis">) => {
      await updateAnalysisSettings(db, admin, experiment.key, settings);
      return answer(submission, intent, { done: "Saved: how the result is read." }, { newKey: null });
    },
    revokeKey: async ({ intent, keyId }: FormOf<"revokeKey">) => {
      await revokeApiKey(db, admin, experiment.id, keyId);
      return answer(submission, intent, {}, { newKey: null });
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const experiment = await load(params.key);
  const submission = parseForm(await request.formData(), experimentPageSchema);
  try {
    return await dispatchIntent(submission, experimentHandlers(submission, admin, experiment));
  } catch (error) {
    if (error instanceof ExperimentError) {
      const intent = submission.status === "success" ? submission.value.intent : null;
      return refuse(submission, intent, error.message, /only a draft/.test(error.message) ? 409 : 400);
    }
    throw error;
  }
}

export default function ExperimentPage() {
  const { experiment, counts, unknown, keys, report, control, draft, power, soFar } =
    useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to="/admin/experiments">← Experiments</Link>
      </p>
      <h1>
        {experiment.name} <span className="muted">({experiment.key})</span>{" "}
        <Badge tone={statusTone(experiment.status)}>{experiment.status}</Badge>
      </h1>
      <p className="muted">
        {experimentSummary(experiment)} A running experiment's arms cannot change: stop it and create a new
        one.
      </p>
      <ActionNotice answer={data} inPlace={["update", "createKey", "analysis"]} />
      <ExperimentStatusForm
        status={experiment.status}
        experimentKey={experiment.key}
        counts={counts}
        answer={data}
      />
      {draft ? <EditExperimentDraft draft={draft} experimentKey={experiment.key} answer={data} /> : null}
      {power ? <PowerPanel query={power.query} answer={power.answer} history={power.history} /> : null}
      {experiment.kind === "interleaving" ? (
        <p className="notice">
          An interleaving experiment: every counted session sees the{" "}
          {experiment.method === "multileaving" ? "team-draft multileave" : `${experiment.method} merge`} of{" "}
          {experiment.arms.map((a) => a.systemKey).join(", ")}; the arms below only split the logging. Its
          wins, win rate and verdict are on the{" "}
          <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}`}>results page</Link>.
        </p>
      ) : null}
      {experiment.kind === "ab" ? <AnalysisSettingsForm settings={experiment} answer={data} /> : null}
      <ExperimentReport counts={counts} report={report} control={control} unknown={unknown} />
      {soFar ? <AfterLaunchPower power={soFar} /> : null}
      <ApiKeysSection experimentKey={experiment.key} keys={keys} answer={data} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
