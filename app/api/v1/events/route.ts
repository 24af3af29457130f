import { eventRoutes } from "@/lib/journeys/events-http";

export const { GET, POST, PUT, PATCH, DELETE } = eventRoutes;
