import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { listSubjects, listSystems } from "~/data/catalog.server";
import {
  createApiKey,
  deleteExperiment,
  experimentDraftInput,
  ExperimentError,
  getExperiment,
  listApiKeys,
  revokeApiKey,
  setExperimentStatus,
  updateExperiment,
} from "~/data/experiments.server";
import { onlineMetrics } from "../../scripts/online/report";
import { UnknownIds } from "~/components/unknown-ids";
import { experimentDashboard } from "~/utils/dashboards.server";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ActionNotice } from "~/components/form-parts";
import { ExperimentFields, readExperimentForm } from "~/components/admin/experiment-form";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { CsrfInput } from "~/utils/csrf";
import {
  formatCi,
  formatCount,
  formatDifference,
  formatLift,
  formatNumber,
  formatP,
  formatRate,
  verdict,
} from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { VerdictLabel } from "~/components/dashboards/verdict";
import { AfterLaunchPower, PowerPanel } from "~/components/power-panel";
import { afterLaunchPower, controlHistory, powerAnswer, powerQuerySchema } from "~/utils/power.server";
import { parseQuery } from "~/utils/route-params.server";
import { TableScroll } from "~/components/table-scroll";

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

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("stop") }),
  z.object({
    intent: z.literal("createKey"),
    expiresInDays: z.coerce
      .number()
      .int()
      .min(1)
      .max(3650)
      .optional()
      .or(z.literal("").transform(() => undefined)),
  }),
  z.object({ intent: z.literal("revokeKey"), keyId: z.coerce.number().int().positive() }),
]);

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const experiment = await load(params.key);
  const form = await request.formData();
  const db = getDb();
  try {
    if (form.get("intent") === "update") {
      const input = readExperimentForm(form);
      if (!input.success)
        return json(
          { error: input.error.issues.map((i) => i.message).join("; "), newKey: null },
          { status: 400 },
        );
      const updated = await updateExperiment(db, admin, experiment.key, input.data);
      return redirect(`/admin/experiments/${encodeURIComponent(updated.key)}`);
    }
    if (form.get("intent") === "delete") {
      await deleteExperiment(db, admin, experiment.key);
      return redirect("/admin/experiments");
    }
    const parsed = intentSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return json(
        { error: "That request was not understood; reload the page and try again.", newKey: null },
        { status: 400 },
      );
    switch (parsed.data.intent) {
      case "start":
      case "stop":
        await setExperimentStatus(
          db,
          admin,
          experiment.key,
          parsed.data.intent === "start" ? "running" : "stopped",
        );
        return json({ error: null, newKey: null });
      case "createKey": {
        const expiresAt = parsed.data.expiresInDays
          ? new Date(Date.now() + parsed.data.expiresInDays * 86_400_000)
          : undefined;
        const created = await createApiKey(db, admin, experiment.key, { expiresAt });
        return json({ error: null, newKey: created.key });
      }
      case "revokeKey":
        await revokeApiKey(db, admin, experiment.id, parsed.data.keyId);
        return json({ error: null, newKey: null });
    }
  } catch (error) {
    if (error instanceof ExperimentError)
      return json(
        { error: error.message, newKey: null },
        { status: /only a draft/.test(error.message) ? 409 : 400 },
      );
    throw error;
  }
}

// Every number through the one formatting module, every metric name through the one registry.
const pct = formatRate;
const num = (v: number | null | undefined) => formatNumber(v);
const labels: Record<string, string> = Object.fromEntries(
  onlineMetrics.map((m) => [m, metricDisplay(m).label]),
);
const asRate = (m: string) => metricDisplay(m).kind === "rate";

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
        <span className="badge">{experiment.status}</span>
      </h1>
      <p className="muted">
        Coverage {experiment.coverage}, hash seed “{experiment.seed}”, committee cap {experiment.committeeCap}
        . Arms:{" "}
        {experiment.arms
          .map((a) => `${a.key} = ${a.systemKey} (${a.weight}${a.isControl ? ", control" : ""})`)
          .join("; ")}
        . A running experiment's arms cannot change: stop it and create a new one.
      </p>
      <ActionNotice error={data?.error} />
      <Form method="post" className="toolbar">
        <CsrfInput />
        {experiment.status === "draft" ? (
          <button type="submit" name="intent" value="start">
            Start experiment
          </button>
        ) : null}
        {experiment.status === "running" ? (
          <button type="submit" name="intent" value="stop" className="button-danger">
            Stop experiment
          </button>
        ) : null}
      </Form>
      {draft ? (
        <section className="panel admin-form-panel" aria-labelledby="edit-draft">
          <h2 id="edit-draft">Edit this draft</h2>
          <Form method="post">
            <CsrfInput />
            <ExperimentFields systems={draft.systems} subjects={draft.subjects} initial={draft.initial} />
            <button type="submit" name="intent" value="update">
              Save draft
            </button>
          </Form>
          <DeleteDraft what={`experiment ${experiment.key}`} />
        </section>
      ) : null}
      {power ? <PowerPanel query={power.query} answer={power.answer} history={power.history} /> : null}
      {experiment.kind === "interleaving" ? (
        <p className="notice">
          An interleaving experiment: every counted session sees the team-draft merge of{" "}
          {experiment.arms.map((a) => a.systemKey).join(" and ")}; the arms below only split the logging. Its
          wins, win rate and verdict are on the{" "}
          <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}`}>results page</Link>.
        </p>
      ) : null}

      {report?.srm?.mismatch ? (
        <p className="notice error" role="alert">
          Sample-ratio mismatch: the units per arm do not fit the configured weights (χ² ={" "}
          {formatNumber(report.srm.chi2)}, p {formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
          {formatP(report.srm.pValue)}). Check the assignment before reading the results.
        </p>
      ) : null}
      {report?.multipleExposureWarning ? (
        <p className="notice error" role="alert">
          {pct(report.excludedShare)} of units were seen in more than one arm and are excluded from every
          metric.
        </p>
      ) : null}

      <h2>Arms</h2>
      <TableScroll label="Arms">
        <table aria-label="Arms">
          <thead>
            <tr>
              <th>Arm</th>
              <th className="num">Exposed units</th>
              <th className="num">Units with sessions</th>
              <th className="num">Sessions</th>
              <th className="num">Events</th>
              {onlineMetrics.map((m) => (
                <th key={m} className="num">
                  {labels[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {counts.map((c) => {
              const arm = report?.arms[c.arm];
              return (
                <tr key={c.arm} data-arm={c.arm}>
                  <th scope="row">
                    {c.arm}
                    {c.arm === control ? " (control)" : ""}
                  </th>
                  <td className="num">{c.exposedUnits}</td>
                  <td className="num">{arm?.units ?? 0}</td>
                  <td className="num">{arm?.sessions ?? 0}</td>
                  <td className="num">{formatCount(c.events)}</td>
                  {onlineMetrics.map((m) => (
                    <td key={m} className="num">
                      {asRate(m) ? pct(arm?.[m]) : num(arm?.[m])}
                      <div className="muted">
                        {arm?.ci?.[m] ? formatCi(arm.ci[m], asRate(m) ? pct : num) : ""}
                      </div>
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {report ? (
        <>
          <p className="muted">
            SRM: χ² = {formatNumber(report.srm?.chi2)}, p{" "}
            {report.srm && formatP(report.srm.pValue).startsWith("<") ? "" : "= "}
            {formatP(report.srm?.pValue)}. Units in more than one arm: {formatCount(report.excludedUnits)} (
            {pct(report.excludedShare)}). Data quality: {report.dataQuality.duplicateEvents} duplicate events,{" "}
            {report.dataQuality.sessionsWithoutImpression} sessions without an impression,{" "}
            {report.dataQuality.eventsAboutUnshownCandidates} events about candidates never shown;{" "}
            <UnknownIds unknown={unknown} />.
          </p>
          <h2>Differences vs control</h2>
          <TableScroll label="Differences vs control">
            <table aria-label="Differences vs control">
              <thead>
                <tr>
                  <th>Arm</th>
                  <th>Metric</th>
                  <th className="num">Difference</th>
                  <th className="num">95% CI</th>
                  <th className="num">Relative lift</th>
                  <th className="num">p (permutation over units)</th>
                  <th>Verdict</th>
                </tr>
              </thead>
              <tbody>
                {report.comparisons.map((c) => (
                  <tr key={`${c.arm}-${c.metric}`}>
                    <td>{c.arm}</td>
                    <td>{labels[c.metric]}</td>
                    <td className="num">{formatDifference(c.difference, metricDisplay(c.metric).kind)}</td>
                    <td className="num">
                      {formatCi(c.ci, (v) => formatDifference(v, metricDisplay(c.metric).kind))}
                    </td>
                    <td className="num">{formatLift(c.relativeLift)}</td>
                    <td className="num">{formatP(c.pValue)}</td>
                    <td>
                      <VerdictLabel
                        verdict={verdict(c.difference, c.ci, metricDisplay(c.metric).direction)}
                      />
                      {metricDisplay(c.metric).direction === "lower" ? (
                        <div className="muted">{directionText("lower")}</div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : (
        <div className="empty">
          No events yet. Conveners' interactions, the event API and `assay events import` fill this page.
        </div>
      )}

      {soFar ? <AfterLaunchPower power={soFar} /> : null}

      <h2>API keys</h2>
      <p className="muted">
        For applications that log events (POST /api/events) or ask for assignments (GET /api/experiments/
        {experiment.key}/assignment?unit=…) from outside Assay.
      </p>
      {data?.newKey ? (
        <p className="notice success" role="status">
          New key (shown once; store it now): <code>{data.newKey}</code>
        </p>
      ) : null}
      {keys.length ? (
        <TableScroll label="API keys">
          <table aria-label="API keys">
            <thead>
              <tr>
                <th>Key</th>
                <th>Created</th>
                <th>Expires</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{new Date(k.createdAt).toISOString().slice(0, 16).replace("T", " ")}</td>
                  <td>{k.expiresAt ? new Date(k.expiresAt).toISOString().slice(0, 10) : "never"}</td>
                  <td>{k.revokedAt ? "revoked" : "active"}</td>
                  <td>
                    {k.revokedAt ? null : (
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="keyId" value={k.id} />
                        <button type="submit" name="intent" value="revokeKey" className="button-danger">
                          Revoke {k.prefix}…
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <Form method="post" className="toolbar">
        <CsrfInput />
        <div>
          <label htmlFor="expiresInDays">Expires after (days, optional)</label>
          <input id="expiresInDays" name="expiresInDays" type="number" min={1} max={3650} />
        </div>
        <button type="submit" name="intent" value="createKey">
          Create API key
        </button>
      </Form>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
