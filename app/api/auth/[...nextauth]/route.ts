import { authRouteHandler } from "@/lib/auth/route-handler";

export { authRouteHandler as GET, authRouteHandler as POST };
