import type { ReactNode } from "react";

/** The narrow frame of the signed-out pages (sign-in, forgotten password, links from mails, single sign-on). */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="login">
      <h1>{title}</h1>
      {children}
    </section>
  );
}
