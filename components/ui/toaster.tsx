"use client";

import { Toaster as Sonner } from "sonner";

export { toast } from "sonner";

export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton toastOptions={{ className: "font-sans" }} />;
}
