export * from "../../db/import";
export * from "../../db/import/parse";
