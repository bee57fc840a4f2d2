import { AUTH_INTENTS, AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from "./account";
import * as z from "./zod";

/** The account forms' schemas (server only: the browser checks the rules derived from them). */
const email = z.pipe(
  z
    .string({ error: AUTH_MESSAGES.emailMissing })
    .check(
      z.trim(),
      z.minLength(1, AUTH_MESSAGES.emailMissing),
      z.maxLength(255, "Email must be less than 255 characters"),
    ),
  z.email("Invalid email address"),
);
const anyPassword = z
  .string({ error: AUTH_MESSAGES.passwordMissing })
  .check(z.minLength(1, AUTH_MESSAGES.passwordMissing), z.maxLength(PASSWORD_MAX, AUTH_MESSAGES.tooLong));
export const NewPasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordMissing })
  .check(
    z.minLength(1, AUTH_MESSAGES.passwordMissing),
    z.minLength(PASSWORD_MIN, AUTH_MESSAGES.weak),
    z.maxLength(PASSWORD_MAX, AUTH_MESSAGES.tooLong),
  );
/** Only a same-site path: "/x" but never "//host" or "/\host" (browsers read both as another site). */
const redirectTo = z.optional(z.string().check(z.maxLength(500)));

export const SignInSchema = z.object({
  intent: z.literal(AUTH_INTENTS.signIn),
  email,
  password: anyPassword,
  redirectTo,
});

export const SignUpSchema = z.object({
  intent: z.literal(AUTH_INTENTS.signUp),
  email,
  password: NewPasswordSchema,
  fullName: z.optional(z.string().check(z.trim(), z.maxLength(100, "Name must be less than 100 characters"))),
  redirectTo,
});

export const AuthSchema = z.discriminatedUnion("intent", [SignInSchema, SignUpSchema]);

export const ForgotPasswordSchema = z.object({ email });
const token = z.string().check(z.maxLength(200));
export const ResetPasswordSchema = z.object({ token, password: NewPasswordSchema });
export const VerifyEmailSchema = z.object({ token, password: anyPassword });
