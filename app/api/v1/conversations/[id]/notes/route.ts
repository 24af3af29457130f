import { conversationNoteRoutes } from "@/lib/conversations/http";

export const { GET, POST, PUT, PATCH, DELETE } = conversationNoteRoutes;
