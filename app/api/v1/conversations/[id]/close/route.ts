import { conversationCloseRoutes } from "@/lib/conversations/http";

export const { GET, POST, PUT, PATCH, DELETE } = conversationCloseRoutes;
