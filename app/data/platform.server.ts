export * from "../../db/platform/unavailable";
