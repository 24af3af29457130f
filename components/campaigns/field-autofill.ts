// The contact attribute a trigger field saves to starts as the field's own name (for a path, its
// last key: `customer.first_name` → `first_name`) and follows it while the user types the field,
// until the user writes an attribute of their own.

/** The attribute a field path suggests: its last key, `-` written as `_`, array steps left out. */
export function attributeFromField(field: string): string {
  const text = field.trim();
  if (!/[.[]/.test(text) && !text.includes("-")) return text;
  const last = text.split(".").pop() ?? "";
  return last.replace(/\[.*$/, "").replace(/-/g, "_");
}

/**
 * The attribute after the field name changed from `previousField` to `nextField`, or null to leave
 * it alone: once edited by hand (or different from what it would have been derived as), it is the
 * user's, and it is never changed while the user is typing in it.
 */
export function followedAttribute({
  previousField,
  nextField,
  attribute,
  editedByHand,
  attributeFocused,
}: {
  previousField: string;
  nextField: string;
  attribute: string;
  editedByHand: boolean;
  attributeFocused: boolean;
}): string | null {
  if (editedByHand || attributeFocused) return null;
  if (attribute !== "" && attribute !== attributeFromField(previousField)) return null;
  const next = attributeFromField(nextField);
  return next === attribute ? null : next;
}
