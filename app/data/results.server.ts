export * from "../../db/results/version";
export * from "../../db/results/parameters";
export * from "../../db/results/offline";
export * from "../../db/results/online";
export * from "../../db/results/campaign";
export * from "../../db/results/interleaving";
export * from "../../db/results/clicks";
export * from "../../db/results/compute";
