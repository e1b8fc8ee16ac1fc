import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { listCampaigns } from "~/data/campaigns.server";
import { listExperiments } from "~/data/experiments.server";
import { createSnapshot, listSnapshots, SnapshotError } from "~/data/snapshots.server";
import { requireUserWithRole } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/utils/csrf";
import { runInPoolKeepingGold } from "~/utils/gold-figures.server";
import { MAX_RESAMPLES, MIN_RESAMPLES, resamplesField, seedField } from "~/schemas/bootstrap";
import { parseOfflineView } from "~/schemas/offline-view";
import { TableScroll } from "~/components/table-scroll";

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
  }));
  return json({
    snapshots: list,
    campaigns: campaigns.filter((c) => c.status !== "draft").map((c) => ({ id: c.id, name: c.name })),
    experiments: experiments.map((e) => ({ key: e.key, name: e.name })),
  });
}

const freezeSchema = z.object({
  kind: z.enum(["offline", "expert", "online", "clicks"], {
    errorMap: () => ({ message: "Choose what to freeze: offline, expert, online or clicks." }),
  }),
  campaign: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  experiment: z.string().optional(),
  // Absent for click models, which have no bootstrap.
  B: resamplesField.optional(),
  // Empty: the seed the result's own page uses (the experiment's, the campaign's, "assay" offline).
  seed: z
    .literal("")
    .transform(() => undefined)
    .or(seedField)
    .optional(),
  // The online page's intervals on screen: fixed (bootstrap) or sequential (always valid, with its N*).
  intervals: z
    .enum(["fixed", "sequential"], {
      errorMap: () => ({ message: "Intervals must be fixed or sequential." }),
    })
    .optional(),
  nStar: z.coerce
    .number()
    .int("N* must be a whole number.")
    .min(1, "N* must be at least 1.")
    .max(10_000_000, "N* must be at most 10,000,000.")
    .optional(),
  // The cutoffs of the offline page on screen, "5,10,20"; absent elsewhere (each kind has its own).
  ks: z
    .string()
    .regex(
      /^\d{1,3}(,\d{1,3}){0,19}$/,
      "Cutoffs (K) must be whole numbers separated by commas, such as 5,10,20.",
    )
    .transform((v) => v.split(",").map(Number))
    .refine((ks) => ks.every((k) => k >= 1), "Every cutoff (K) must be at least 1.")
    .optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const form = await request.formData();
  const parsed = freezeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return json({ error: parsed.error.issues[0].message }, { status: 400 });
  // The offline page's window, stratification and conflict exclusion, recorded in the snapshot's parameters.
  const view = parseOfflineView(form);
  if ("error" in view) return json({ error: view.error }, { status: 400 });
  try {
    const wanted = { ...parsed.data, experiment: parsed.data.experiment || undefined, view: view.view };
    const s = await createSnapshot(getDb(), user, wanted, runInPoolKeepingGold);
    // The same parameters on unchanged data were frozen already: show that snapshot, and say so.
    return redirect(`/analyst/snapshots/${s.id}${s.created ? "" : "?existing"}`);
  } catch (error) {
    if (error instanceof SnapshotError) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

/** Controls fill their grid cell: a select as wide as its longest option would overlap its neighbour. */
const fill = { width: "100%" };

export default function Snapshots() {
  const { snapshots, campaigns, experiments } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1>Snapshots</h1>
      <p className="muted">
        A snapshot freezes a result with its parameters, the data it saw and a sha256 of the result; nobody
        can change or delete it afterwards.
      </p>
      <Form method="post" className="panel" aria-label="Freeze snapshot">
        <CsrfInput />
        <div className="form-grid">
          <div>
            <label htmlFor="kind">Result</label>
            <select id="kind" style={fill} name="kind" defaultValue="offline">
              <option value="offline">Offline report (tier 1)</option>
              <option value="expert">Expert campaign (tier 2)</option>
              <option value="online">Online experiment (tier 3)</option>
              <option value="clicks">Click models (experiment)</option>
            </select>
          </div>
          <div>
            <label htmlFor="campaign">Campaign (expert)</label>
            <select id="campaign" style={fill} name="campaign" defaultValue="">
              <option value="">—</option>
              {campaigns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="experiment">Experiment (online, click models)</label>
            <select id="experiment" style={fill} name="experiment" defaultValue="">
              <option value="">—</option>
              {experiments.map((e) => (
                <option key={e.key} value={e.key}>
                  {e.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="B">Resamples</label>
            <input
              id="B"
              style={fill}
              name="B"
              type="number"
              min={MIN_RESAMPLES}
              max={MAX_RESAMPLES}
              defaultValue={1000}
            />
          </div>
          <div>
            <label htmlFor="seed">Seed</label>
            <input id="seed" style={fill} name="seed" defaultValue="" placeholder="as on its page" />
          </div>
          <div>
            <button type="submit" disabled={busy}>
              {busy ? "Computing…" : "Freeze snapshot"}
            </button>
          </div>
        </div>
        {data?.error ? (
          <p className="form-error" role="alert">
            {data.error}
          </p>
        ) : null}
      </Form>
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
                  <td>{s.subject}</td>
                  <td>{s.created}</td>
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
