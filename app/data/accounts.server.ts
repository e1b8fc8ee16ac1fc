export * from "../../db/accounts/password";
export * from "../../db/accounts/sessions";
export * from "../../db/accounts/users";
