// Fills a saved reply's `{{attribute}}` placeholders from the contact (browser-safe: no imports).
// `{{name}}` is the contact's name, `{{first_name}}` its first word unless the contact has its own
// first_name; a placeholder with no value is left as it is, for the member to see and fill in.
export function fillSavedReply(body: string, contact: { name: string | null; phone: string; attributes?: Record<string, unknown> }): string {
  const values: Record<string, unknown> = {
    first_name: contact.name?.trim().split(/\s+/)[0],
    ...contact.attributes,
    name: contact.name,
    phone: contact.phone,
  };
  return body.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (placeholder, key: string) => {
    const value = values[key];
    return value === undefined || value === null || String(value).trim() === "" ? placeholder : String(value);
  });
}
