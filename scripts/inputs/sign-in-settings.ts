import { z } from "zod";
import { rolesField } from "./users";

/** The admin's sign-in settings form (single sign-on): strangers refused or joining with roles; passwords. */
export const signInSettingsSchema = z.object({
  unknownEmails: z.enum(["refuse", "join"], {
    errorMap: () => ({ message: "Choose whether unknown emails are refused or may join" }),
  }),
  joinRoles: rolesField,
  // A checkbox: present ("on") when ticked, absent otherwise.
  passwordSignIn: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});
