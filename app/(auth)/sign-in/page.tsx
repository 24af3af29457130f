import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser, oauthProviders, safeCallbackUrl } from "@/lib/auth";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { appUrl } from "@/lib/env";
import { requestOrigin } from "@/lib/http/request-origin";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: PageProps<"/sign-in">) {
  if (await getSessionUser()) redirect("/campaigns");
  const { callbackUrl, error, reset, verify } = await searchParams;
  const providers = oauthProviders().map((provider) => ({ id: provider.id, name: provider.name }));
  return (
    <SignInForm
      callbackUrl={safeCallbackUrl(callbackUrl, appUrl(await requestOrigin()))}
      providers={providers}
      initialError={typeof error === "string" ? signInErrorMessage(error) : undefined}
      notice={
        reset === "done"
          ? "Your password was changed. Sign in with the new one."
          : verify === "1"
            ? "Sign in to confirm your email address."
            : undefined
      }
    />
  );
}
