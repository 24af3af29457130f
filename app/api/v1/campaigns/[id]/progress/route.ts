import { progressRoutes } from "@/lib/bulk/http";

export const { GET, POST, PUT, PATCH, DELETE } = progressRoutes;
