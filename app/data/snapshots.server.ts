export * from "../../db/snapshots/snapshots";
