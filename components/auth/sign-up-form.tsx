"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { fieldAria, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MIN_PASSWORD_LENGTH, signUpSchema, type SignUpInput } from "@/lib/auth/schemas";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { requestJson } from "@/lib/http/client";

/** `callbackUrl`: where to go once signed in (an invitation link); `email`: the address to start with. */
export function SignUpForm({ callbackUrl = "/campaigns", email = "" }: { callbackUrl?: string; email?: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string>();
  const [offerSignIn, setOfferSignIn] = useState(false);
  const { register, handleSubmit, formState, setError } = useForm<SignUpInput>({ resolver: zodResolver(signUpSchema), defaultValues: email ? { email } : undefined });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    setOfferSignIn(false);
    const result = await requestJson("/api/auth/sign-up", { method: "POST", body: values });
    if (!result.ok) {
      for (const fieldError of result.problem.errors ?? []) {
        setError(fieldError.path as keyof SignUpInput, { message: fieldError.message });
      }
      if (!result.problem.errors?.length) setFormError(result.problem.detail);
      return;
    }
    // The sign-up answer is the same for a taken email; only signing in tells, and only to
    // whoever knows the account's password.
    const signedIn = await signIn("credentials", { email: values.email, password: values.password, redirect: false });
    if (!signedIn || signedIn.error) {
      setFormError(signInErrorMessage(signedIn?.error));
      // Most likely the email already has an account: point to signing in or resetting the password.
      setOfferSignIn(true);
      return;
    }
    router.replace(safeCallbackUrl(callbackUrl, window.location.origin));
    router.refresh();
  });

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Create your account</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">Your workspace comes with a sandbox sender, so you can try everything right away.</p>
      <form method="post" onSubmit={onSubmit} noValidate className="mt-8 grid gap-4">
        {formError && (
          <div role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {formError}
            {offerSignIn && (
              <>
                {" "}
                If you already have an account,{" "}
                <Link href="/sign-in" className="font-medium underline underline-offset-4">
                  sign in instead
                </Link>{" "}
                or{" "}
                <Link href="/forgot-password" className="font-medium underline underline-offset-4">
                  reset your password
                </Link>
                .
              </>
            )}
          </div>
        )}
        <FormField id="name" label="Your name" error={errors.name?.message}>
          <Input autoComplete="name" autoFocus {...fieldAria("name", errors.name?.message)} {...register("name")} />
        </FormField>
        <FormField id="workspaceName" label="Company or workspace name" error={errors.workspaceName?.message} hint="Optional. You can change it later.">
          <Input autoComplete="organization" {...fieldAria("workspaceName", errors.workspaceName?.message, true)} {...register("workspaceName")} />
        </FormField>
        <FormField id="email" label="Work email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...fieldAria("email", errors.email?.message)} {...register("email")} />
        </FormField>
        <FormField id="password" label="Password" error={errors.password?.message} hint={`At least ${MIN_PASSWORD_LENGTH} characters, not a common password.`}>
          <Input type="password" autoComplete="new-password" {...fieldAria("password", errors.password?.message, true)} {...register("password")} />
        </FormField>
        <Button type="submit" className="mt-2 w-full" disabled={isSubmitting}>
          {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
          Create account
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link href="/sign-in" className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
