export * from "../../db/catalog/catalog";
export * from "../../db/catalog/offline-input";
