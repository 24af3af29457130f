"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, MailCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { forgotPasswordSchema, type ForgotPasswordInput } from "@/lib/auth/schemas";
import { requestJson } from "@/lib/http/client";

export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const { register, handleSubmit, formState, setError } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema) });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await requestJson("/api/auth/forgot-password", { method: "POST", body: values });
    if (!result.ok) {
      const emailError = result.problem.errors?.find((error) => error.path === "email");
      if (emailError) setError("email", { message: emailError.message });
      else setFormError(result.problem.detail);
      return;
    }
    setSentTo(values.email.trim());
  });

  if (sentTo) {
    return (
      <div>
        <MailCheck className="size-8 text-primary" aria-hidden />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight">Check your email</h1>
        <p role="status" className="mt-1.5 text-sm text-muted-foreground">
          If an account uses <strong className="font-medium break-all text-foreground">{sentTo}</strong>, we sent it a link to choose a new password. The
          link works once, for one hour.
        </p>
        <p className="mt-6 text-sm text-muted-foreground">
          No mail after a few minutes? Check the spam folder, or{" "}
          <button type="button" className="font-medium text-primary underline-offset-4 hover:underline" onClick={() => setSentTo(undefined)}>
            try another address
          </button>
          .
        </p>
        <p className="mt-6 text-center text-sm">
          <Link href="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Reset your password</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">Enter the email you sign in with and we will send you a link to choose a new password.</p>
      <form method="post" onSubmit={onSubmit} noValidate className="mt-8 grid gap-4">
        <FormError>{formError}</FormError>
        <FormField id="email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...fieldAria("email", errors.email?.message)} {...register("email")} />
        </FormField>
        <Button type="submit" className="mt-2 w-full" disabled={isSubmitting}>
          {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
          Send reset link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Remembered it?{" "}
        <Link href="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
