import type { MetadataRoute } from "next";

// Colours are --primary and --background of app/globals.css in sRGB: manifests take no oklch().
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: "Sendstream",
    short_name: "Sendstream",
    description: "Send WhatsApp template messages the moment your shop, CRM or Zapier calls a webhook.",
    start_url: "/campaigns",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#4d53d9",
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
