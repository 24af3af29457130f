import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage() {
  if (await getSessionUser()) redirect("/campaigns");
  return <SignUpForm />;
}
