// CSV import jobs as the REST API and the import wizard describe them: the options of a job and
// the job itself (progress and report).
import { z } from "zod";
import { attributeTypes, consentStatuses } from "@/db/schema";
import { attributeKeySchema } from "@/lib/contacts/attributes";
import { countryCodeSchema } from "@/lib/contacts/phone";
import { createContactSchema } from "@/lib/contacts/schemas";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";

export const MAX_IMPORT_COLUMNS = 200;
/** The upload cap: 200 MiB is several million rows of a typical export. */
export const MAX_IMPORT_FILE_BYTES = 200 * 1024 * 1024;

const storable = (schema: z.ZodString) => schema.refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } });

export const columnTargetSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("phone") }),
  z.object({ type: z.literal("name") }),
  z.object({ type: z.literal("attribute"), key: attributeKeySchema, attributeType: z.enum(attributeTypes) }),
  z
    .object({
      type: z.literal("consent"),
      values: z
        .record(storable(z.string().trim().min(1, "An empty cell leaves consent as it is; map only values.").max(100)), z.enum(consentStatuses))
        .refine((values) => Object.keys(values).length > 0, "Map at least one value.")
        .refine((values) => Object.keys(values).length <= 50, "At most 50 values.")
        .meta({
          description:
            "Each value of the column (compared without case and surrounding spaces) → `subscribed`, `unsubscribed` or `unknown`. An empty cell leaves the contact's consent as it is (new contacts: `unknown`); a value not in the map refuses the row (it is in `rejected.csv` with the reason).",
          example: { yes: "subscribed", no: "unsubscribed" },
        }),
    })
    .meta({ description: "The column states consent, through a value mapping." }),
  z.object({ type: z.literal("opted_out") }).meta({ description: "Deprecated: a consent column mapping true/yes/1 to `unsubscribed` and false/no/0 to `unknown`." }),
  z.object({ type: z.literal("skip") }),
]);
export type ColumnTarget = z.output<typeof columnTargetSchema>;

export const importColumnSchema = z.object({
  index: z.number().int().min(0).max(MAX_IMPORT_COLUMNS - 1),
  header: storable(z.string().max(200)),
  target: columnTargetSchema,
});
export type ImportColumn = z.output<typeof importColumnSchema>;

export const importOptionsSchema = z
  .object({
    fileName: storable(z.string().trim().min(1, "Name the file.").max(255)),
    columns: z.array(importColumnSchema).min(1).max(MAX_IMPORT_COLUMNS),
    defaultCountry: countryCodeSchema("Expected an ISO 3166-1 alpha-2 country code in upper case, such as GB or US.")
      .nullable()
      .optional()
      .describe("Used only for numbers written without + and a country code; without it such numbers are invalid (never guessed)."),
    updateExisting: z.boolean().default(false).describe("Update the name and attributes of contacts that already exist; otherwise leave them as they are."),
    listId: z.string().min(1).max(64).optional().describe("Add every valid contact of the file to this list."),
    newListName: storable(z.string().trim().min(1).max(100)).optional().describe("Add every valid contact to a list of this name, created if the workspace has none."),
    permissionConfirmed: z
      .boolean()
      .default(false)
      .describe("You confirm you have these contacts' permission to message them. Required when a consent value maps to `subscribed`; recorded in the audit log."),
  })
  .superRefine((options, ctx) => {
    const seenIndex = new Set<number>();
    const seenKey = new Set<string>();
    const counts = { phone: 0, name: 0, consent: 0 };
    options.columns.forEach((column, i) => {
      if (seenIndex.has(column.index)) ctx.addIssue({ code: "custom", path: ["columns", i, "index"], message: `Column ${column.index} is mapped twice.` });
      seenIndex.add(column.index);
      const { target } = column;
      if (target.type === "phone" || target.type === "name" || target.type === "opted_out" || target.type === "consent") {
        const kind = target.type === "opted_out" ? "consent" : target.type;
        counts[kind]++;
        if (counts[kind] > 1) ctx.addIssue({ code: "custom", path: ["columns", i, "target"], message: `Only one column can be mapped to ${kind}.` });
      }
      if (target.type === "attribute") {
        if (seenKey.has(target.key)) ctx.addIssue({ code: "custom", path: ["columns", i, "target", "key"], message: `Another column is already mapped to "${target.key}".` });
        seenKey.add(target.key);
      }
    });
    if (counts.phone === 0) ctx.addIssue({ code: "custom", path: ["columns"], message: "Map one column to the phone number." });
    if (subscribesContacts(options) && !options.permissionConfirmed) {
      ctx.addIssue({
        code: "custom",
        path: ["permissionConfirmed"],
        message: "Confirm that you have permission to message these contacts: the file marks some of them subscribed.",
      });
    }
    if (options.listId && options.newListName) ctx.addIssue({ code: "custom", path: ["newListName"], message: "Send listId or newListName, not both." });
  });
export type ImportOptions = z.output<typeof importOptionsSchema>;

/** True when a consent column maps any value to `subscribed` (the import then needs the permission confirmation). */
export function subscribesContacts(options: { columns: { target: ColumnTarget }[] }): boolean {
  return options.columns.some((column) => column.target.type === "consent" && Object.values(column.target.values).includes("subscribed"));
}
export type ImportOptionsInput = z.input<typeof importOptionsSchema>;

export const importStatusSchema = z.enum(["awaiting_file", "processing", "completed", "failed"]);

export const importSchema = z.object({
  id: z.string(),
  object: z.literal("import"),
  status: importStatusSchema.describe("`awaiting_file` → `processing` (the file is stored, then merged) → `completed` or `failed`."),
  fileName: z.string(),
  rowsRead: z.number().int().describe("Data rows read from the file so far (the header is not counted)."),
  created: z.number().int().describe("Contacts created (while `processing`: so far; a large file is merged in ranges of phones, and this grows as each range is merged)."),
  updated: z.number().int().describe("Existing contacts whose name, attributes or consent changed (so far, while `processing`)."),
  unchanged: z.number().int().describe("Existing contacts left as they were (so far, while `processing`)."),
  duplicates: z.number().int().describe("Rows whose phone appears again later in the file (the last occurrence wins); set when the import completes."),
  invalid: z.number().int().describe("Rows refused; download them with their reasons from `rejected.csv`. Set when the merge begins."),
  listId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable().describe("When the file was fully stored and the merge began."),
  finishedAt: z.string().nullable(),
});
export type ImportView = z.output<typeof importSchema>;

export const importPageSchema = z.object({ data: z.array(importSchema), nextCursor: z.string().nullable() });

export const listImportsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size (1–100, default 20).").meta({ example: 20 }),
  cursor: z.string().max(200).optional().describe("`nextCursor` of the previous page."),
});

export const MAX_BULK_CONTACTS = 1000;

export const bulkContactsSchema = z
  .array(createContactSchema)
  .min(1, "Send at least one contact.")
  .max(MAX_BULK_CONTACTS, `At most ${MAX_BULK_CONTACTS} contacts per request; send a CSV body for more.`);
export type BulkContactsInput = z.output<typeof bulkContactsSchema>;

export const bulkResultSchema = z.object({
  object: z.literal("bulk_result"),
  created: z.number().int(),
  updated: z.number().int(),
  data: z.array(z.object({ id: z.string(), phone: z.string(), created: z.boolean() })).describe("One entry per item, in the order sent."),
});
export type BulkResult = z.output<typeof bulkResultSchema>;

