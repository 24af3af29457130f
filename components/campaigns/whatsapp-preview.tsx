import { ExternalLink, FileText, Image as ImageIcon, Reply, Video } from "lucide-react";
import type { TemplatePreview } from "@/lib/templates/render";
import { cn } from "@/lib/utils";

/** A WhatsApp-style chat bubble showing a rendered template. */
export function WhatsAppPreview({ preview, businessName, className }: { preview: TemplatePreview | null; businessName: string; className?: string }) {
  return (
    <figure className={cn("overflow-hidden rounded-2xl border shadow-sm", className)} aria-label="Message preview">
      <div className="flex items-center gap-2.5 bg-[#008069] px-4 py-3 text-white">
        <div className="flex size-8 items-center justify-center rounded-full bg-white/20 text-sm font-semibold" aria-hidden>
          {businessName.charAt(0).toUpperCase()}
        </div>
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{businessName}</p>
          <p className="text-[11px] text-white">Business account</p>
        </div>
      </div>
      <div
        className="min-h-64 px-3 py-4"
        style={{ backgroundColor: "#efeae2", backgroundImage: "radial-gradient(rgba(0,0,0,0.035) 1px, transparent 1px)", backgroundSize: "14px 14px" }}
      >
        {preview ? (
          <div className="max-w-[92%]">
            <div data-testid="whatsapp-bubble" className="relative rounded-lg rounded-tl-none bg-white px-2.5 pt-2 pb-1.5 text-[13.5px] leading-snug text-[#111b21] shadow-[0_1px_0.5px_rgba(11,20,26,0.13)]">
              <span className="absolute top-0 -left-2 size-0 border-t-[10px] border-l-[10px] border-t-white border-l-transparent" aria-hidden />
              {preview.header?.kind === "media" && (
                <div className="mb-1.5 flex h-28 items-center justify-center rounded-md bg-[#e9edef] text-[#8696a0]">
                  {preview.header.format === "image" ? <ImageIcon aria-hidden /> : preview.header.format === "video" ? <Video aria-hidden /> : <FileText aria-hidden />}
                  <span className="sr-only">{preview.header.format} header</span>
                </div>
              )}
              {preview.header?.kind === "text" && <p className="mb-1 font-semibold">{preview.header.text}</p>}
              <p className="whitespace-pre-wrap break-words">{highlightPlaceholders(preview.body)}</p>
              {preview.footer && <p className="mt-1 text-[12px] text-[#667781]">{preview.footer}</p>}
              <p className="mt-0.5 text-right text-[11px] text-[#667781]" aria-hidden>
                12:00
              </p>
            </div>
            {preview.buttons.length > 0 && (
              <div className="mt-0.5 grid gap-0.5">
                {preview.buttons.map((button, index) => (
                  <div
                    key={index}
                    className="flex items-center justify-center gap-1.5 rounded-lg bg-white px-3 py-2 text-[13.5px] font-medium text-[#027eb5] shadow-[0_1px_0.5px_rgba(11,20,26,0.13)]"
                    title={button.url}
                  >
                    {button.type === "URL" ? <ExternalLink className="size-3.5" aria-hidden /> : <Reply className="size-3.5" aria-hidden />}
                    {button.text}
                  </div>
                ))}
              </div>
            )}
          </div>
        ) : (
          <p className="mx-auto mt-20 max-w-52 rounded-lg bg-white/80 px-3 py-2 text-center text-xs text-[#667781]">
            Choose a template to see the message your customers will receive.
          </p>
        )}
      </div>
    </figure>
  );
}

/** Unfilled `{{…}}` placeholders stand out so a missing mapping is visible at a glance. */
function highlightPlaceholders(text: string) {
  const parts = text.split(/(\{\{\s*[A-Za-z0-9_]+\s*\}\}|\[[A-Za-z0-9_]+\])/g);
  return parts.map((part, index) =>
    /^(\{\{.*\}\}|\[[A-Za-z0-9_]+\])$/.test(part) ? (
      <mark key={index} className="rounded bg-amber-100 px-0.5 text-amber-800">
        {part}
      </mark>
    ) : (
      part
    ),
  );
}
