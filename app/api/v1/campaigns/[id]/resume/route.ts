import { campaignActionRoutes } from "@/lib/openapi/resources";

export const { POST, GET, PUT, PATCH, DELETE } = campaignActionRoutes("resume");
