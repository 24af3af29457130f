import { journeyRunEndRoutes } from "@/lib/journeys/http";

export const { GET, POST, PUT, PATCH, DELETE } = journeyRunEndRoutes;
