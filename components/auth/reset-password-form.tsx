"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { fieldAria, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MIN_PASSWORD_LENGTH, resetPasswordSchema, type ResetPasswordInput } from "@/lib/auth/schemas";
import { requestJson } from "@/lib/http/client";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [linkError, setLinkError] = useState<string | undefined>(token ? undefined : "This reset link is incomplete. Open the link from the mail again, or request a new one.");
  const { register, handleSubmit, formState, setError } = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, password: "" },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setLinkError(undefined);
    const result = await requestJson<{ email: string }>("/api/auth/reset-password", { method: "POST", body: values });
    if (!result.ok) {
      const passwordError = result.problem.errors?.find((error) => error.path === "password");
      if (passwordError) setError("password", { message: passwordError.message });
      else setLinkError(result.problem.detail);
      return;
    }
    router.replace("/sign-in?reset=done");
  });

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Choose a new password</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">After saving it, sign in with the new password.</p>
      <form method="post" onSubmit={onSubmit} noValidate className="mt-8 grid gap-4">
        {linkError && (
          <div role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {linkError}{" "}
            <Link href="/forgot-password" className="font-medium underline underline-offset-4">
              Request a new link
            </Link>
          </div>
        )}
        <input type="hidden" {...register("token")} />
        <FormField id="password" label="New password" error={errors.password?.message} hint={`At least ${MIN_PASSWORD_LENGTH} characters, not a common password.`}>
          <Input type="password" autoComplete="new-password" autoFocus {...fieldAria("password", errors.password?.message, true)} {...register("password")} />
        </FormField>
        <Button type="submit" className="mt-2 w-full" disabled={isSubmitting || !token}>
          {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
          Save new password
        </Button>
      </form>
    </div>
  );
}
