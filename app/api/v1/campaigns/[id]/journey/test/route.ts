import { journeyTestRoutes } from "@/lib/journeys/http";

export const { GET, POST, PUT, PATCH, DELETE } = journeyTestRoutes;
