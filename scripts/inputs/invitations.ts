import { z } from "zod";
import { confirmField, intentSchema } from "./forms";
import { idField } from "./ids";
import { passwordField, rolesField } from "./users";

const inviteEmail = z
  .string({ required_error: "Enter an email" })
  .trim()
  .email("Enter a valid email address")
  .max(320);

/**
 * Resend and revoke, on the invitations page and on a campaign's page. Both end the link already sent
 * (resending replaces it), so both ask first.
 */
export const invitationRowForms = [
  z.object({
    intent: z.literal("resend"),
    id: idField("Choose an invitation from the list"),
    confirmed: confirmField("Confirm sending a new link."),
  }),
  z.object({
    intent: z.literal("revoke"),
    id: idField("Choose an invitation from the list"),
    confirmed: confirmField("Confirm revoking the invitation."),
  }),
] as const;

/** The admin's invitations page: invite an address with roles, resend or revoke one (after confirming). */
export const invitationSchema = intentSchema(
  z.object({ intent: z.literal("invite"), email: inviteEmail, roles: rolesField }),
  ...invitationRowForms,
);

/** A campaign's page invites experts only: the role is fixed, so the form sends no roles to trust. */
export const campaignInviteForm = z.object({ intent: z.literal("invite"), email: inviteEmail });

/** The invited person's form: their name and a password, typed twice. */
export const acceptInvitationSchema = z
  .object({
    name: z.string({ required_error: "Enter your name" }).trim().min(1, "Enter your name").max(200),
    password: passwordField,
    repeat: z.string({ required_error: "Repeat the password" }),
  })
  .refine((v) => v.password === v.repeat, { message: "The two passwords differ", path: ["repeat"] });

/** "Forgot password": the address to send a reset link to. */
export const forgotPasswordSchema = z.object({
  email: z
    .string({ required_error: "Enter your email" })
    .trim()
    .email("Enter a valid email address")
    .max(320),
});

/** A reset link's form: the new password, typed twice. */
export const resetPasswordSchema = z
  .object({ password: passwordField, repeat: z.string({ required_error: "Repeat the password" }) })
  .refine((v) => v.password === v.repeat, { message: "The two passwords differ", path: ["repeat"] });
