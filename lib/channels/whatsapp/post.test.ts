import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { graphAgents, postGraphJson } from "./post";

/** A server that keeps idle connections a minute (as a remote API may, or may drop them silently). */
async function patientServer({ answerAfterMs = 0 } = {}) {
  /** Each connection the server accepted: whether the client has closed it. */
  const connections: { closedByClient: boolean }[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => setTimeout(() => response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}'), answerAfterMs));
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket: Socket) => {
    const entry = { closedByClient: false };
    connections.push(entry);
    socket.on("end", () => (entry.closedByClient = true));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { connections, baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe("the send path's connections", () => {
  it("closes a connection idle for its limit itself, and the next send opens a new one", async () => {
    const server = await patientServer();
    const agents = graphAgents(200);
    stops.push(() => {
      agents["http:"].destroy();
      return server.close();
    });
    const config = { baseUrl: server.baseUrl, version: "v23.0", accessToken: "token" };

    await postGraphJson(config, "1/messages", { n: 1 }, agents);
    await postGraphJson(config, "1/messages", { n: 2 }, agents);
    expect(server.connections).toHaveLength(1); // reused while busy

    await expect.poll(() => server.connections[0]!.closedByClient, { timeout: 2_000 }).toBe(true);
    expect(await postGraphJson(config, "1/messages", { n: 3 }, agents)).toEqual({ ok: true });
    expect(server.connections).toHaveLength(2);
  });

  it("never cuts a request in flight for being quiet longer than the idle limit", async () => {
    const server = await patientServer({ answerAfterMs: 600 });
    const agents = graphAgents(150);
    stops.push(() => {
      agents["http:"].destroy();
      return server.close();
    });
    const config = { baseUrl: server.baseUrl, version: "v23.0", accessToken: "token", timeoutMs: 5_000 };
    expect(await postGraphJson(config, "1/messages", { n: 1 }, agents)).toEqual({ ok: true });
  });
});
