import { conversationReplyRoutes } from "@/lib/conversations/http";

export const { GET, POST, PUT, PATCH, DELETE } = conversationReplyRoutes;
