import type { Metadata } from "next";
import { connection } from "next/server";
import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import { HydrationMarker } from "@/components/hydration-marker";
import { Toaster } from "@/components/ui/toaster";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Sendstream", template: "%s · Sendstream" },
  description: "Send WhatsApp template messages the moment your shop, CRM or Zapier calls a webhook.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: Next.js can only give its scripts the nonce that
  // proxy.ts puts in the Content-Security-Policy when there is a request.
  await connection();
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="min-h-dvh font-sans">
        {children}
        <Toaster />
        <HydrationMarker />
      </body>
    </html>
  );
}
