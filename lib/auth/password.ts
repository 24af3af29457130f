import bcrypt from "bcryptjs";

const COST = 12;
// Compared against when the email is unknown, so both cases take the same time.
const DUMMY_HASH = "$2b$12$YI0K5WjEWKpHlPmxo79.4eN5Qg0mdmK5NvmU.KkOOwwLbhs6gWicy";

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return Boolean(hash) && matches;
}
