import { ResultsTable } from "~/components/dashboards/online/results-table";
import { GuardrailsTable } from "~/components/dashboards/online/guardrails-table";
import { SlicesTable } from "~/components/dashboards/online/slices-table";
import { InterleavingSlicesSection } from "~/components/dashboards/interleaving/slices-table";
import { MultileavingSlicesSection } from "~/components/dashboards/interleaving/multileave-slices-table";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { getExperiment } from "~/data/experiments.server";
import { DEFAULT_N_STAR } from "../../scripts/online/sequential";
import { requireUserWithRole } from "~/security/auth.server";
import { experimentDashboard } from "~/results/dashboards.server";
import { interleavingDashboard } from "~/results/interleaving.server";
import { afterLaunchPower } from "~/results/power.server";
import { getDb } from "~/utils/db.server";
import { parseQuery } from "~/utils/route-params.server";
import { OnlineDashboard } from "~/components/dashboards/online-dashboard";
import { InterleavingSection } from "~/components/dashboards/interleaving/section";
import { IntervalsForm } from "~/components/intervals-form";
import { AfterLaunchPower } from "~/components/power-panel";
import { FreezeButton, keepDashboardAfterFreeze } from "~/components/freeze-button";
import { formatRate } from "~/utils/format";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ComputedAt } from "~/components/computed-at";
import { RECOMPUTE_ROLES, recomputeAction } from "~/results/recompute.server";
import { holdsRole } from "../../scripts/inputs/roles";
import { compositionDashboard } from "~/results/composition.server";
import { interleavingParameters } from "~/data/results.server";
import { AdoptedCompositionSection } from "~/components/dashboards/online/adopted-composition";
import { Badge, statusTone } from "~/components/badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.experiment.name ?? "Experiment"} · Assay` },
];

/** The A/B page's view: which intervals the differences carry (`?intervals=sequential&nStar=5000`). */
const viewSchema = z.object({
  intervals: z
    .enum(["fixed", "sequential"], { errorMap: () => ({ message: "intervals must be fixed or sequential" }) })
    .default("fixed"),
  nStar: z.coerce
    .number({ invalid_type_error: "nStar must be a number" })
    .int("nStar must be a whole number")
    .min(1, "nStar must be at least 1")
    .max(10_000_000, "nStar must be at most 10,000,000")
    .default(DEFAULT_N_STAR),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  const found = await getExperiment(getDb(), params.key ?? "");
  if (!found) throw json({ message: `There is no experiment ${params.key}.` }, { status: 404 });
  const summary = (e: typeof found) => ({
    key: e.key,
    name: e.name,
    status: e.status,
    kind: e.kind,
    arms: e.arms.map((a) => ({ key: a.key, system: a.systemKey, weight: a.weight, isControl: a.isControl })),
  });
  if (found.kind === "interleaving") {
    return json({
      kind: "interleaving" as const,
      experiment: summary(found),
      interleaving: await interleavingDashboard(found),
      composition: await compositionDashboard(found, interleavingParameters(found)),
      ab: null,
    });
  }
  const view = parseQuery(request, viewSchema);
  const { experiment, ...rest } = await experimentDashboard(params.key, view);
  // Analysts read results; the seed and arms are shown, nothing to change.
  return json({
    kind: "ab" as const,
    experiment: summary(experiment),
    composition: rest.report ? await compositionDashboard(experiment, rest.parameters) : null,
    interleaving: null,
    ab: {
      ...rest,
      view,
      power: rest.report
        ? await afterLaunchPower(getDb(), experiment, {
            // CUPED's measured ρ² on the metric the MDE is about, and the slices the page reads.
            varianceReduction: rest.decisions?.frequentist.find((d) => d.metric === "sessionSuccessRate")
              ?.cuped?.varianceReduction,
            slices: rest.decisions?.slices.holm.slices.filter((s) => !s.tooFew).length,
          })
        : null,
      canRecompute: holdsRole(user.roles, RECOMPUTE_ROLES),
    },
  });
}

/** Recompute: the A/B result with the view in the URL (its intervals), anew. */
export async function action({ request, params }: ActionFunctionArgs) {
  return recomputeAction(request, async () => {
    const found = await getExperiment(getDb(), params.key ?? "");
    if (!found || found.kind === "interleaving")
      throw json({ message: `Experiment ${params.key} has no A/B result to recompute.` }, { status: 404 });
    await experimentDashboard(found.key, parseQuery(request, viewSchema), { fresh: true });
  });
}

export default function ExperimentDashboard() {
  const { experiment, interleaving, ab, composition } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/analyst/experiments">← Experiments and campaigns</Link>
      </p>
      <h1>
        {experiment.name} <Badge tone={statusTone(experiment.status)}>{experiment.status}</Badge>
      </h1>
      <p>
        <Link to={`/analyst/experiments/${encodeURIComponent(experiment.key)}/clicks`}>
          Click models: how far down conveners look, and CTR corrected for position
        </Link>
      </p>
      {interleaving ? (
        <InterleavingPage experiment={experiment.key} interleaving={interleaving} composition={composition} />
      ) : ab ? (
        <>
          <p className="muted">
            Arms:{" "}
            {experiment.arms
              .map(
                (a) =>
                  `${a.key} = ${a.system} (weight ${formatRate(a.weight)}${a.isControl ? ", control" : ""})`,
              )
              .join("; ")}
            . Arms' intervals: 95% cluster bootstrap over conveners; p-values: permutation over conveners.
          </p>
          <IntervalsForm view={ab.view} />
          <FreezeButton
            kind="online"
            experiment={experiment.key}
            B={ab.parameters.B}
            seed={ab.parameters.seed}
            intervals={{
              kind: ab.view.intervals,
              nStar: ab.view.intervals === "sequential" ? ab.view.nStar : undefined,
            }}
          />
          {!ab.report ? (
            <div className="empty">No events yet.</div>
          ) : (
            <>
              <ComputedAt at={ab.computedAt} canRecompute={ab.canRecompute} />
              {ab.decisions ? <ResultsTable decisions={ab.decisions} /> : null}
              <GuardrailsTable guardrails={ab.guardrails} shares={composition?.guardrails} />
              {ab.decisions ? (
                <SlicesTable slices={ab.decisions.slices} byConvener={ab.decisions.convenerSlices} />
              ) : null}
              {composition ? (
                <AdoptedCompositionSection composition={composition} guardrails={false} />
              ) : null}
              <OnlineDashboard
                report={ab.report}
                daily={ab.daily}
                control={ab.control}
                live={{
                  unknown: ab.unknown,
                  exposedUnits: ab.counts.reduce((n, c) => n + c.exposedUnits, 0),
                }}
              />
              {ab.power ? <AfterLaunchPower power={ab.power} /> : null}
            </>
          )}
        </>
      ) : null}
    </>
  );
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

/** An interleaving experiment's page: its results, their slices, and the composition of adopted candidates. */
function InterleavingPage({
  experiment,
  interleaving,
  composition,
}: {
  experiment: string;
  interleaving: NonNullable<PageData["interleaving"]>;
  composition: PageData["composition"];
}) {
  return (
    <>
      <FreezeButton
        kind="online"
        experiment={experiment}
        B={interleaving.parameters.B}
        seed={interleaving.parameters.seed}
      />
      <InterleavingSection interleaving={interleaving} />
      <InterleavingSlicesSection {...interleaving} />
      <MultileavingSlicesSection {...interleaving} />
      <GuardrailsTable guardrails={[]} shares={composition?.guardrails} />
      {composition ? <AdoptedCompositionSection composition={composition} guardrails={false} /> : null}
    </>
  );
}

// A freeze goes to its snapshot without computing this page again first.
export const shouldRevalidate = keepDashboardAfterFreeze;

export const ErrorBoundary = RouteErrorBoundary;
