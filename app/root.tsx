import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  Form,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import styles from "./styles/app.css";
import { getOptionalUser } from "./security/auth.server";
import { CsrfInput } from "./security/csrf";
import { csrfToken } from "./security/csrf.server";
import { useNonce } from "./security/nonce";
import { RouteErrorBoundary } from "./components/error-boundary";
import { orderedRoles, type Role } from "../scripts/inputs/roles";
import { Badge } from "~/components/badge";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];
export const meta: MetaFunction = () => [{ title: "Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const csrf = csrfToken(request);
  // Only what the header needs; never the whole user row.
  return json(
    { user: user ? { name: user.name, roles: orderedRoles(user.roles) } : null, csrf: csrf.token },
    csrf.setCookie ? { headers: { "Set-Cookie": csrf.setCookie } } : undefined,
  );
}

const navByRole: Record<Role, { to: string; label: string }[]> = {
  admin: [
    { to: "/admin", label: "Overview" },
    { to: "/admin/proposals", label: "Proposals" },
    { to: "/admin/candidates", label: "Candidates" },
    { to: "/admin/systems", label: "Systems" },
    { to: "/admin/lists", label: "Lists" },
    { to: "/admin/experiments", label: "Experiments" },
    { to: "/admin/campaigns", label: "Campaigns" },
    { to: "/admin/import", label: "Import" },
    { to: "/admin/users", label: "Users" },
    { to: "/admin/audit", label: "Audit" },
    { to: "/analyst", label: "Offline report" },
  ],
  analyst: [
    { to: "/analyst", label: "Offline report" },
    { to: "/analyst/experiments", label: "Experiments and campaigns" },
    { to: "/analyst/snapshots", label: "Snapshots" },
  ],
  expert: [{ to: "/expert", label: "My assignments" }],
  convener: [{ to: "/convener", label: "My proposals" }],
};

/** The links of every role a person holds, each role's home first among its own, each link once. */
function navOf(roles: readonly Role[]) {
  const links = roles.flatMap((role) => navByRole[role]);
  return links.filter((item, i) => links.findIndex((other) => other.to === item.to) === i);
}

/**
 * The navigation and the user menu. On a narrow screen they fold behind a "Menu" disclosure button
 * (aria-expanded); folding waits for hydration, so without scripts the links are simply all shown.
 * Escape closes the menu and gives focus back to the button; following a link closes it.
 */
function SiteMenu({ roles, name }: { roles: Role[]; name: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  useEffect(() => setHydrated(true), []);
  useEffect(() => setOpen(false), [location.pathname, location.search]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="nav-toggle button-secondary"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((o) => !o)}
      >
        Menu
      </button>
      <div
        id="site-menu"
        className={`site-menu${hydrated && !open ? " is-folded" : ""}`}
        onKeyDown={(event) => {
          if (event.key === "Escape" && open) {
            setOpen(false);
            button.current?.focus();
          }
        }}
      >
        <nav aria-label="Main">
          {navOf(roles).map((item) => (
            <NavLink key={item.to} to={item.to} end={item.to.split("/").length === 2}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <Form method="post" action="/logout" className="user-menu">
          <CsrfInput />
          <span>
            {name}{" "}
            {roles.map((role) => (
              <Badge key={role}>{role}</Badge>
            ))}
          </span>
          <Link to="/account/password">Password</Link>
          <button type="submit" className="button-secondary">
            Sign out
          </button>
        </Form>
      </div>
    </>
  );
}

/**
 * The in-app navigation under way (a link followed, a form submitted): while the next page loads the old
 * one stays on screen, so a thin bar across the top says that something is happening. It is fixed in
 * place (no layout shift) and shows only after a short delay (in CSS), so quick pages do not flash it.
 */
function NavigationProgress({ busy }: { busy: boolean }) {
  if (!busy) return null;
  return (
    <div className="nav-progress" role="progressbar" aria-label="Loading the page">
      <div className="nav-progress-bar" />
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const user = data?.user;
  const busy = useNavigation().state !== "idle";
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link to="/" className="brand">
            Assay
          </Link>
          {user ? <SiteMenu roles={user.roles} name={user.name} /> : null}
        </header>
        <NavigationProgress busy={busy} />
        <main id="main" aria-busy={busy || undefined}>
          {children}
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorBoundary;
