import { launchCheckRoutes } from "@/lib/bulk/http";

export const { GET, POST, PUT, PATCH, DELETE } = launchCheckRoutes;
