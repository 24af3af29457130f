import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionUser } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { appUrl } from "@/lib/env";
import { requestOrigin } from "@/lib/http/request-origin";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { callbackUrl, email } = await searchParams;
  const next = safeCallbackUrl(callbackUrl, appUrl(await requestOrigin()));
  if (await getSessionUser()) redirect(next);
  return <SignUpForm callbackUrl={next} email={typeof email === "string" ? email.slice(0, 254) : ""} />;
}
