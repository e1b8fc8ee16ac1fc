// oidc-provider ships no types (and @types/oidc-provider lags its major versions): the little the test
// provider uses, typed here.
declare module "oidc-provider" {
  import type { RequestListener } from "node:http";
  type Account = { accountId: string; claims: () => Record<string, unknown> };
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, sub: string) => Account | undefined | Promise<Account | undefined>;
      },
    );
    callback(): RequestListener;
  }
}
