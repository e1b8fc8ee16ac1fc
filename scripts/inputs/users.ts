import { z } from "zod";
import { orderedRoles, roles } from "./roles";
import { confirmField, intentSchema } from "./forms";
import { idField } from "./ids";

export const passwordField = z
  .string({ required_error: "Enter a password" })
  .min(12, "Use at least 12 characters")
  .max(200, "Use at most 200 characters");

const roleField = z.enum(roles, { errorMap: () => ({ message: `Choose roles from: ${roles.join(", ")}` }) });
/** A checkbox group: one value per ticked role, at least one, each once. */
export const rolesField = z
  .array(roleField, { required_error: "Choose at least one role" })
  .min(1, "Choose at least one role")
  .transform((held) => orderedRoles(held));
const subjectIds = z.array(idField("Choose subjects from the list")).default([]);

export const createUserSchema = z.object({
  name: z.string({ required_error: "Enter a name" }).trim().min(1, "Enter a name").max(200),
  email: z.string({ required_error: "Enter an email" }).trim().email("Enter a valid email address").max(320),
  roles: rolesField,
  password: passwordField,
  subjects: subjectIds,
});

/** The forms of an admin's user page, one per intent. */
export const editUserSchema = intentSchema(
  z.object({
    intent: z.literal("update"),
    name: z.string({ required_error: "Enter a name" }).trim().min(1, "Enter a name").max(200),
    roles: rolesField,
    subjects: subjectIds,
  }),
  z.object({ intent: z.literal("password"), password: passwordField }),
  z.object({ intent: z.literal("deactivate"), confirmed: confirmField("Confirm deactivating the user.") }),
  z.object({ intent: z.literal("activate") }),
  z.object({
    intent: z.literal("end-session"),
    session: z
      .string({ required_error: "Choose a session to end" })
      .regex(/^[0-9a-f]{8}$/, "A session is named by 8 hex characters"),
    confirmed: confirmField("Confirm ending the session."),
  }),
  z.object({
    intent: z.literal("end-all-sessions"),
    confirmed: confirmField("Confirm ending all sessions."),
  }),
);

export type EditUserForm = z.output<typeof editUserSchema>;

/** A person changing their own password: the current one, and the new one twice. */
export const changePasswordSchema = z
  .object({
    current: z
      .string({ required_error: "Enter your current password" })
      .min(1, "Enter your current password"),
    password: passwordField,
    repeat: z.string({ required_error: "Repeat the new password" }),
  })
  .refine((v) => v.password === v.repeat, { message: "The two new passwords differ", path: ["repeat"] })
  .refine((v) => v.password !== v.current, {
    message: "Choose a password other than the current one",
    path: ["password"],
  });
