import { Fragment } from "react";
import { idClass } from "~/utils/id-like";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { listCampaigns } from "~/data/campaigns.server";
import { listExperiments } from "~/data/experiments.server";
import { createSnapshot, listSnapshots, SnapshotError } from "~/data/snapshots.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { runInAppPools } from "~/results/gold-figures.server";
import { freezeSchema } from "~/schemas/snapshots";
import { FreezeForm } from "~/components/snapshots/freeze-form";
import { parseForm } from "~/forms/forms";
import { answer, refuse } from "~/forms/forms.server";
import { parseOfflineView } from "~/schemas/offline-view";
import { parseFairnessTargets } from "~/schemas/fairness-targets";
import { TableScroll } from "~/components/table-scroll";
import { parameterSummary } from "../../scripts/results/compare";
import { logDatabaseOutage, logError } from "../../scripts/lib/log";
import { isDatabaseUnavailable } from "~/data/platform.server";

export const meta: MetaFunction = () => [{ title: "Snapshots · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, ["analyst", "admin"]);
  const db = getDb();
  const [snapshots, campaigns, experiments] = await Promise.all([
    listSnapshots(db),
    listCampaigns(db),
    listExperiments(db),
  ]);
  const list = snapshots.map((s) => ({
    id: s.id,
    kind: s.kind,
    subject: s.subject,
    created: s.createdAt.toISOString().slice(0, 16).replace("T", " "),
    by: s.createdByLabel,
    sha256: s.sha256,
    parameters: parameterSummary(s.parameters),
  }));
  return json({
    snapshots: list,
    campaigns: campaigns.filter((c) => c.status !== "draft").map((c) => ({ id: c.id, name: c.name })),
    experiments: experiments.map((e) => ({ key: e.key, name: e.name })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const form = await request.formData();
  const submission = parseForm(form, freezeSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400 });
  // The offline page's window, stratification and conflict exclusion, recorded in the snapshot's parameters.
  const view = parseOfflineView(form);
  if ("error" in view) return refuse(submission, null, view.error);
  // The offline page's fairness targets (its `?target=`), recorded in the snapshot's parameters.
  const targets = parseFairnessTargets(
    new URLSearchParams(form.getAll("target").flatMap((v) => (typeof v === "string" ? [["target", v]] : []))),
  );
  if ("error" in targets) return refuse(submission, null, targets.error);
  try {
    const wanted = {
      ...submission.value,
      experiment: submission.value.experiment || undefined,
      view: view.view,
      ...(submission.value.kind === "offline" && targets.targets.length ? { targets: targets.targets } : {}),
    };
    const s = await createSnapshot(getDb(), user, wanted, runInAppPools);
    // The same parameters on unchanged data were frozen already: show that snapshot, and say so.
    const href = `/analyst/snapshots/${s.id}${s.created ? "" : "?existing"}`;
    // A dashboard's Freeze button (a fetcher) goes there itself: the router drops a fetcher's redirect when a
    // page's own revalidation (the campaign page polls while its gold figures compute) began meanwhile.
    return form.get("respond") === "href" ? answer(submission, null, { done: href }) : redirect(href);
  } catch (error) {
    if (error instanceof SnapshotError) return refuse(submission, null, error.message, error.status);
    // Anything else (the database refused the write, or went away) is still a refusal the analyst can
    // retry from the report they froze, which keeps its settings; an error page would lose them.
    (isDatabaseUnavailable(error) ? logDatabaseOutage : logError)(
      "POST /analyst/snapshots: not frozen",
      error,
    );
    return refuse(
      submission,
      null,
      "The snapshot could not be stored just now; nothing was frozen. Freeze again.",
      503,
    );
  }
}

export default function Snapshots() {
  const { snapshots, campaigns, experiments } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Snapshots</h1>
      <p className="muted">
        A snapshot freezes a result with its parameters, the data it saw and a sha256 of the result; nobody
        can change or delete it afterwards.
      </p>
      <FreezeForm campaigns={campaigns} experiments={experiments} answer={data} />
      {snapshots.length === 0 ? (
        <div className="empty">No snapshots yet.</div>
      ) : (
        <TableScroll label="Snapshots">
          <table aria-label="Snapshots">
            <thead>
              <tr>
                <th className="num">Id</th>
                <th>Kind</th>
                <th>Of</th>
                <th>Created (UTC)</th>
                <th>Parameters</th>
                <th>By</th>
                <th>sha256</th>
              </tr>
            </thead>
            <tbody>
              {snapshots.map((s) => (
                <tr key={s.id}>
                  <td className="num">
                    <Link to={`/analyst/snapshots/${s.id}`}>{s.id}</Link>
                  </td>
                  <td>{s.kind}</td>
                  <td className={idClass(s.subject)}>{s.subject}</td>
                  <td>{s.created}</td>
                  <td className="snapshot-parameter-value">
                    {/* Each parameter on one line ("ks [5,10,20]"), the list of them wrapping between. */}
                    {s.parameters
                      ? s.parameters.split(" · ").map((part, i) => (
                          <Fragment key={i}>
                            {i > 0 ? " · " : null}
                            <span className="id">{part}</span>
                          </Fragment>
                        ))
                      : "—"}
                  </td>
                  <td>{s.by}</td>
                  <td>
                    <code>{s.sha256.slice(0, 16)}…</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
