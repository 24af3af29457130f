import { withAuth } from "next-auth/middleware";
import { prepareAuthEnvironment } from "@/lib/auth/environment";

prepareAuthEnvironment();

// A fast redirect for signed-out visitors; every page and route still checks the session itself.
export default withAuth({ pages: { signIn: "/sign-in" } });

export const config = {
  matcher: ["/campaigns/:path*", "/logs/:path*", "/settings/:path*"],
};
