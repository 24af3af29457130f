import { CheckCircle2 } from "lucide-react";
import { Logo } from "@/components/shell/logo";

const points = [
  "Send a WhatsApp campaign to a list or segment of customers who opted in, and read their replies",
  "Trigger a message from any shop, CRM or Zapier with one HTTP call",
  "Map fields and contact attributes to template variables, no code",
  "Follow every message from queued to read, and export the log as CSV",
];

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[1fr_1.1fr]">
      <div className="flex flex-col px-6 py-8 sm:px-12">
        <Logo />
        <main className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-sm">{children}</div>
        </main>
      </div>
      <aside className="relative hidden overflow-hidden bg-[oklch(0.22_0.05_275)] text-white lg:flex lg:flex-col lg:justify-center lg:px-16">
        <div className="pointer-events-none absolute -top-32 -right-32 size-[28rem] rounded-full bg-[oklch(0.52_0.2_275/0.5)] blur-3xl" />
        <div className="relative max-w-md">
          <h2 className="text-3xl font-semibold tracking-tight">The right WhatsApp message, the moment it matters.</h2>
          <ul className="mt-8 space-y-4 text-[15px] text-white/80">
            {points.map((point) => (
              <li key={point} className="flex gap-3">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-[oklch(0.8_0.12_160)]" aria-hidden />
                {point}
              </li>
            ))}
          </ul>
          <div className="mt-10 rounded-xl border border-white/10 bg-white/5 p-4 font-mono text-xs leading-relaxed text-white/80">
            <span className="text-[oklch(0.8_0.12_160)]">POST</span> /api/campaigns/cmp_…/trigger
            <br />
            {`{ "phone": "+14155552671", "name": "Jane", "order_number": "A-1042" }`}
            <br />
            <span className="text-white/50">→ 202 Accepted · queued → sent → delivered</span>
          </div>
        </div>
      </aside>
    </div>
  );
}
