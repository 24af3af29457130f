// The contact attribute a trigger field saves to starts as the field's own name and follows it while
// the user types the field, until the user writes an attribute of their own.

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
  if (attribute !== "" && attribute !== previousField.trim()) return null;
  const next = nextField.trim();
  return next === attribute ? null : next;
}
