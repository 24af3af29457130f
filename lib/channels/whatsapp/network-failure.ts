// Why a request never got an answer, in words: fetch only says "fetch failed" and hides the cause.

export type NetworkFailureCause = "dns" | "refused" | "timeout" | "reset" | "tls" | "unknown";

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH/i;

/** The system error code behind a failed fetch (undici nests it under `cause`, sometimes in an AggregateError). */
function errorCode(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== "object" || depth > 4) return null;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
  const nested = errorCode(cause, depth + 1);
  if (nested) return nested;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const innerCode = errorCode(inner, depth + 1);
      if (innerCode) return innerCode;
    }
  }
  return typeof code === "string" ? code : null;
}

export function networkFailureCause(error: unknown): { cause: NetworkFailureCause; code: string | null } {
  const code = errorCode(error);
  if (!code) return { cause: "unknown", code: null };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "EAI_FAIL") return { cause: "dns", code };
  if (code === "ECONNREFUSED") return { cause: "refused", code };
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") return { cause: "timeout", code };
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET" || code === "EHOSTUNREACH" || code === "ENETUNREACH") {
    return { cause: "reset", code };
  }
  if (TLS_CODES.test(code)) return { cause: "tls", code };
  return { cause: "unknown", code };
}

const EXPLANATIONS: Record<NetworkFailureCause, (host: string) => string> = {
  dns: (host) => `The address ${host} could not be resolved (DNS). Check the server's internet access and DNS settings.`,
  refused: (host) => `${host} refused the connection. Check WHATSAPP_GRAPH_URL and any proxy or firewall between this server and Meta.`,
  timeout: (host) => `Connecting to ${host} timed out. The network may be slow or a firewall may drop the traffic.`,
  reset: (host) => `The connection to ${host} was cut off or the network is unreachable. Try again in a moment.`,
  tls: (host) => `The secure (TLS) connection to ${host} failed: its certificate was not accepted. A proxy that intercepts HTTPS can cause this.`,
  unknown: (host) => `The request to ${host} failed before an answer arrived.`,
};

/** One sentence a person can act on, with the system code for support ("… (ECONNREFUSED)"). */
export function describeNetworkFailure(error: unknown, url: URL | string): string {
  const host = typeof url === "string" ? safeHost(url) : url.host;
  const { cause, code } = networkFailureCause(error);
  const sentence = EXPLANATIONS[cause](host);
  return code ? `${sentence} (${code})` : sentence;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
