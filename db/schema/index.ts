export * from "./catalog";
export * from "./systems";
export * from "./users";
export * from "./experiments";
export * from "./campaigns";
export * from "./snapshots";
export * from "./security";
export * from "./conflicts";
