import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { listSubjects } from "~/data/catalog.server";
import { roles } from "../../scripts/inputs/roles";
import { createUser, DuplicateEmailError, listUsers } from "~/data/accounts.server";
import { createUserSchema } from "../../scripts/inputs/users";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { searchField } from "~/utils/listing";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/utils/csrf";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction = () => [{ title: "Users · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { q } = parseQuery(request, z.object({ q: searchField.default("") }));
  const [users, subjects] = await Promise.all([listUsers(getDb(), q), listSubjects(getDb())]);
  return json({ users, subjects, q });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: createUserSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply({ hideFields: ["password"] }), created: null }, { status: 400 });
  try {
    const user = await createUser(getDb(), admin, {
      ...submission.value,
      subjectIds: submission.value.subjects,
    });
    return json({
      result: submission.reply({ resetForm: true }),
      created: { name: user.name, email: user.email },
    });
  } catch (error) {
    if (error instanceof DuplicateEmailError) {
      return json(
        {
          result: submission.reply({ fieldErrors: { email: [error.message] }, hideFields: ["password"] }),
          created: null,
        },
        { status: 400 },
      );
    }
    throw error;
  }
}

export default function Users() {
  const { users, subjects, q } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createUserSchema }),
    shouldValidate: "onBlur",
    defaultValue: { role: "expert" },
  });
  return (
    <>
      <h1>Users</h1>
      <section className="panel" aria-labelledby="new-user">
        <h2 id="new-user" style={{ marginTop: 0 }}>
          New user
        </h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <div className="form-grid">
            <div>
              <label htmlFor={fields.name.id}>Name</label>
              <input {...getInputProps(fields.name, { type: "text" })} />
              <p className="field-error" id={fields.name.errorId}>
                {fields.name.errors}
              </p>
            </div>
            <div>
              <label htmlFor={fields.email.id}>Email</label>
              <input {...getInputProps(fields.email, { type: "email" })} />
              <p className="field-error" id={fields.email.errorId}>
                {fields.email.errors}
              </p>
            </div>
            <div>
              <label htmlFor={fields.role.id}>Role</label>
              <select {...getSelectProps(fields.role)}>
                {roles.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
              <p className="field-error" id={fields.role.errorId}>
                {fields.role.errors}
              </p>
            </div>
            <div>
              <label htmlFor={fields.password.id}>Initial password</label>
              <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
              <p className="field-error" id={fields.password.errorId}>
                {fields.password.errors}
              </p>
            </div>
            <div>
              <label htmlFor={fields.subjects.id}>Subjects of expertise (experts)</label>
              <select
                id={fields.subjects.id}
                name={fields.subjects.name}
                multiple
                size={Math.min(6, Math.max(2, subjects.length))}
              >
                {subjects.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {form.errors ? <p className="form-error">{form.errors}</p> : null}
          <button type="submit" disabled={navigation.state === "submitting"}>
            Create user
          </button>
          {data?.created ? (
            <p className="notice success" role="status">
              Created {data.created.name} ({data.created.email}).
            </p>
          ) : null}
        </Form>
      </section>

      <Form method="get" className="toolbar" role="search">
        <div>
          <label htmlFor="user-search">Search name or email</label>
          <input id="user-search" type="search" name="q" defaultValue={q} />
        </div>
        <button type="submit">Search</button>
      </Form>
      <TableScroll label="Users">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {users.length === 0 ? (
              <tr>
                <td colSpan={4} className="empty">
                  No user matches “{q}”.
                </td>
              </tr>
            ) : (
              users.map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link to={`/admin/users/${u.id}`}>{u.name}</Link>
                  </td>
                  <td>{u.email}</td>
                  <td>{u.role}</td>
                  <td>{u.active ? "active" : <span className="badge inactive">deactivated</span>}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
