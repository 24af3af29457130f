import { previewRoutes } from "@/lib/bulk/http";

export const { GET, POST, PUT, PATCH, DELETE } = previewRoutes;
