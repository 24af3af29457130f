import { z } from "zod";

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

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "Name must be at most 100 characters"),
  email,
  password: z
    .string()
    .min(8, "Use at least 8 characters")
    // bcrypt ignores everything after 72 bytes.
    .refine((value) => new TextEncoder().encode(value).length <= 72, "Use at most 72 bytes"),
  workspaceName: z.string().trim().max(100, "Workspace name must be at most 100 characters").optional(),
});

export type SignInInput = z.input<typeof signInSchema>;
export type SignUpInput = z.input<typeof signUpSchema>;
