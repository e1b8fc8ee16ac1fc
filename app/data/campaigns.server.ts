export * from "../../db/campaigns/campaign-data";
export * from "../../db/campaigns/campaign-truth";
export * from "../../db/campaigns/campaigns";
export * from "../../db/campaigns/grade-requests";
