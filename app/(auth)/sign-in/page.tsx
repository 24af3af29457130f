import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser, oauthProviders } from "@/lib/auth";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: PageProps<"/sign-in">) {
  if (await getSessionUser()) redirect("/campaigns");
  const { callbackUrl, error } = await searchParams;
  const providers = oauthProviders().map((provider) => ({ id: provider.id, name: provider.name }));
  return (
    <SignInForm
      callbackUrl={typeof callbackUrl === "string" && callbackUrl.startsWith("/") ? callbackUrl : "/campaigns"}
      providers={providers}
      initialError={typeof error === "string" && error !== "CredentialsSignin" ? "Sign-in failed. Try again." : undefined}
    />
  );
}
