import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

// The token is in the URL: no Referer may carry it to another site.
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return <ResetPasswordForm token={typeof token === "string" ? token : ""} />;
}
