import { retargetRoutes } from "@/lib/bulk/http";

export const { GET, POST, PUT, PATCH, DELETE } = retargetRoutes;
