import { z } from "zod";
import { COMMON_PASSWORDS } from "./common-passwords";

export const MIN_PASSWORD_LENGTH = 10;

const email = z
  .string()
  .trim()
  .min(1, "Enter your email address")
  .max(254, "Email address is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((value) => value.toLowerCase());

export const signInSchema = z.object({
  email,
  password: z.string().min(1, "Enter your password").max(200),
});

/** A password someone chooses (sign-up, reset): long enough and not one of the most common ones. */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200, "Use at most 200 characters")
  .refine((value) => !COMMON_PASSWORDS.has(value.toLowerCase()), "This password is one of the most common ones. Choose another.");

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "Name must be at most 100 characters"),
  email,
  password: newPasswordSchema,
  workspaceName: z.string().trim().max(100, "Workspace name must be at most 100 characters").optional(),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({
  token: z.string().trim().min(1, "The reset link is incomplete. Open the link from the mail again.").max(200),
  password: newPasswordSchema,
});

export type SignInInput = z.input<typeof signInSchema>;
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type SignUpInput = z.input<typeof signUpSchema>;
