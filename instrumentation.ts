export async function register() {
  // The start-up itself lives in instrumentation-node.ts: this file is compiled for the Edge
  // runtime as well, and must not mention Node.js APIs.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./instrumentation-node");
    await registerNode();
  }
}
