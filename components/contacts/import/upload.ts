// The file goes up as the raw request body (`Content-Type: text/csv`), streamed from disk by the
// browser; XMLHttpRequest is used because fetch reports no upload progress.
import type { ClientProblem } from "@/lib/http/client";

export function uploadCsv(url: string, file: File, onProgress: (fraction: number) => void): Promise<{ ok: true } | { ok: false; problem: ClientProblem }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", "text/csv");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / Math.max(1, event.total));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true });
        return;
      }
      let problem: Partial<ClientProblem> = {};
      try {
        problem = JSON.parse(xhr.responseText) as Partial<ClientProblem>;
      } catch {
        // Not problem+json; the status says enough.
      }
      resolve({
        ok: false,
        problem: { status: xhr.status, title: problem.title ?? "Upload failed", detail: problem.detail ?? `The upload failed with status ${xhr.status}.`, errors: problem.errors },
      });
    };
    xhr.onerror = () => resolve({ ok: false, problem: { status: 0, title: "Network error", detail: "The upload was interrupted. Check your connection and try again." } });
    xhr.send(file);
  });
}
