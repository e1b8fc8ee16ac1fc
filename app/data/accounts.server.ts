export * from "../../db/accounts/password";
export * from "../../db/accounts/sessions";
export * from "../../db/accounts/users";
export * from "../../db/accounts/sign-in";
export * from "../../db/accounts/password-policy";
export * from "../../db/accounts/account-tokens";
export * from "../../db/accounts/sso";
export * from "../../db/accounts/sign-in-settings";
