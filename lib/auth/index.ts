// The application's only door to authentication: swapping next-auth for another library touches lib/auth alone.
export { authOptions, oauthProviders, SIGN_IN_PATH } from "./options";
export { getSessionUser, requireUser, type SessionUser } from "./session";
export { createAccount, signUp, verifyCredentials, type AccountUser } from "./accounts";
export { safeCallbackUrl, DEFAULT_AFTER_SIGN_IN } from "./callback-url";
export { signInSchema, signUpSchema, type SignInInput, type SignUpInput } from "./schemas";
