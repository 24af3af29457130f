"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { signInSchema, type SignInInput } from "@/lib/auth/schemas";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";

export function SignInForm({
  callbackUrl,
  providers,
  initialError,
  notice,
}: {
  callbackUrl: string;
  providers: { id: string; name: string }[];
  initialError?: string;
  /** A status line above the form, e.g. after a password reset. */
  notice?: string;
}) {
  const router = useRouter();
  const [formError, setFormError] = useState(initialError);
  const { register, handleSubmit, formState } = useForm<SignInInput>({ resolver: zodResolver(signInSchema) });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await signIn("credentials", { ...values, redirect: false });
    if (!result || result.error) {
      setFormError(signInErrorMessage(result?.error));
      return;
    }
    router.replace(safeCallbackUrl(callbackUrl, window.location.origin));
    router.refresh();
  });

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Welcome back</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">Sign in to your Sendstream workspace.</p>
      <form method="post" onSubmit={onSubmit} noValidate className="mt-8 grid gap-4">
        {notice && !formError && (
          <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            {notice}
          </div>
        )}
        <FormError>{formError}</FormError>
        <FormField id="email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...fieldAria("email", errors.email?.message)} {...register("email")} />
        </FormField>
        <div className="grid gap-2">
          <FormField id="password" label="Password" error={errors.password?.message}>
            <Input type="password" autoComplete="current-password" {...fieldAria("password", errors.password?.message)} {...register("password")} />
          </FormField>
          <Link href="/forgot-password" className="justify-self-end text-xs font-medium text-primary underline-offset-4 hover:underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="mt-2 w-full" disabled={isSubmitting}>
          {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
          Sign in
        </Button>
      </form>
      {providers.length > 0 && (
        <div className="mt-4 grid gap-2">
          <div className="my-2 flex items-center gap-3 text-xs text-muted-foreground">
            <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
          </div>
          {providers.map((provider) => (
            <Button key={provider.id} variant="outline" className="w-full" onClick={() => signIn(provider.id, { callbackUrl })}>
              Continue with {provider.name}
            </Button>
          ))}
        </div>
      )}
      <p className="mt-6 text-center text-sm text-muted-foreground">
        New to Sendstream?{" "}
        <Link href="/sign-up" className="font-medium text-primary hover:underline">
          Create an account
        </Link>
      </p>
    </div>
  );
}
