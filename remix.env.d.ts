/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    ip: string;
  }
}
export {};
