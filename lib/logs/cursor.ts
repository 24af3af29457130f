// Log pages read with the shared keyset cursor; these names are the ones the logs code uses.
export { decodeCursor, encodeCursor, type CursorDirection, type KeysetCursor as LogCursor } from "@/db/cursor";
