import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { listSubjects, listSystems } from "~/data/catalog.server";
import { CampaignError, createCampaign, listCampaigns } from "~/data/campaigns.server";
import { listUsers } from "~/data/accounts.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormErrors } from "~/components/form-parts";
import { CampaignFields } from "~/components/admin/campaign-form";
import { campaignFormSchema } from "../../scripts/inputs/campaigns";
import { errorsByField, formErrorsOf, parseForm } from "~/forms/forms";
import { answer, refuse } from "~/forms/forms.server";
import { CsrfInput } from "~/security/csrf";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction = () => [{ title: "Rating campaigns · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const db = getDb();
  const [campaigns, systems, subjects, users] = await Promise.all([
    listCampaigns(db),
    listSystems(db),
    listSubjects(db),
    listUsers(db),
  ]);
  return json({
    campaigns,
    systems: systems.map((s) => s.key),
    subjects,
    experts: users
      .filter((u) => u.roles.includes("expert") && u.active)
      .map((u) => ({ email: u.email, name: u.name })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), campaignFormSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400 });
  try {
    const campaign = await createCampaign(getDb(), admin, submission.value);
    return redirect(`/admin/campaigns/${campaign.id}`);
  } catch (error) {
    if (error instanceof CampaignError) return refuse(submission, null, error.message);
    throw error;
  }
}

export default function Campaigns() {
  const { campaigns, systems, subjects, experts } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form] = useForm({
    id: "new-campaign-form",
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, campaignFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <h1>Rating campaigns</h1>
      {campaigns.length === 0 ? (
        <div className="empty">No campaigns yet. Create one below.</div>
      ) : (
        <TableScroll label="Campaigns">
          <table aria-label="Campaigns">
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th className="num">Proposals</th>
                <th className="num">Pairs to grade</th>
                <th className="num">Raters each</th>
                <th className="num">Grades</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/admin/campaigns/${c.id}`}>{c.name}</Link>
                  </td>
                  <td>{c.status}</td>
                  <td className="num">{c.proposals}</td>
                  <td className="num">{c.items}</td>
                  <td className="num">{c.raters}</td>
                  <td className="num">{c.ratings}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <section className="panel admin-form-panel" aria-labelledby="new-campaign">
        <h2 id="new-campaign" style={{ marginTop: 0 }}>
          New campaign
        </h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <CampaignFields
            systems={systems}
            subjects={subjects}
            experts={experts}
            errors={errorsByField(form.allErrors)}
          />
          <FormErrors errors={formErrorsOf(data)} />
          <button type="submit" disabled={busy}>
            Create campaign
          </button>
        </Form>
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
