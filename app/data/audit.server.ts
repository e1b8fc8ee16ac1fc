export * from "../../db/audit/audit-log";
