import { checkHealth } from "@/lib/health";
import { json, withPublic } from "@/lib/routing/route";

export const GET = withPublic(async () => {
  const health = await checkHealth();
  const unavailable = health.status === "unavailable";
  return json(health, {
    status: unavailable ? 503 : 200,
    headers: unavailable ? { "Retry-After": "5", "Cache-Control": "no-store" } : { "Cache-Control": "no-store" },
  });
});
