import { conversationReadRoutes } from "@/lib/conversations/http";

export const { GET, POST, PUT, PATCH, DELETE } = conversationReadRoutes;
