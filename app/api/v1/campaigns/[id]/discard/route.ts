import { campaignActionRoutes } from "@/lib/campaigns/http";

export const { POST, GET, PUT, PATCH, DELETE } = campaignActionRoutes("discard");
