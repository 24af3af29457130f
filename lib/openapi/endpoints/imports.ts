// Endpoints of the imports area (and the bulk contact upsert, which can start an import); spread
// into ENDPOINTS in ../registry.ts.
import { CSV_BODY_CONSENT_VALUES } from "@/lib/imports/consent-values";
import { MAX_RECORD_CHARS } from "@/lib/imports/csv";
import { bulkContactsSchema, bulkResultSchema, importOptionsSchema, importPageSchema, importSchema, listImportsQuerySchema } from "@/lib/imports/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { EXAMPLE_IDS } from "../schemas";

const IMPORT_ID = "imp_2XyZ7bNm4QwE9rTu";

/** The `consent` column of a CSV body, from the values the server accepts. */
const CSV_CONSENT_TEXT = `A \`consent\` column sets consent as the JSON form's \`consent\` does (source \`api\`, the key's name as detail): ${Object.entries(CSV_BODY_CONSENT_VALUES)
  .map(([value, status]) => `\`${value}\` → ${status}`)
  .join(", ")} (any letter case); an empty cell leaves consent as it is. Any other value answers 422 naming the row (\`file.rows[{row}].consent\`, rows numbered as in a spreadsheet, the header is row 1) and imports nothing.`;
const NEXT_CURSOR = "WyJvIiwiMjAyNi0xMS0yMVQxNDowMzowNy41MTIwMDBaIiwiaW1wXzJYeVo3Yk5tNFF3RTlyVHUiXQ";

const importLocation = { description: "`/api/v1/imports/{id}` of the import.", schema: { type: "string" }, required: true };

const importIdParam: Parameter = { name: "id", description: "The import's id.", schema: { type: "string" }, required: true, example: IMPORT_ID };

const awaitingExample = {
  id: IMPORT_ID,
  object: "import",
  status: "awaiting_file",
  fileName: "customers.csv",
  rowsRead: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  duplicates: 0,
  invalid: 0,
  listId: EXAMPLE_IDS.list,
  error: null,
  createdAt: EXAMPLE_TIME,
  startedAt: null,
  finishedAt: null,
};
const processingExample = { ...awaitingExample, status: "processing", rowsRead: 48210, startedAt: "2026-11-21T14:03:09.020Z" };
const completedExample = {
  ...processingExample,
  status: "completed",
  created: 45102,
  updated: 1200,
  unchanged: 310,
  duplicates: 1120,
  invalid: 478,
  finishedAt: "2026-11-21T14:03:10.310Z",
};

const optionsExample = {
  fileName: "customers.csv",
  columns: [
    { index: 0, header: "Phone", target: { type: "phone" } },
    { index: 1, header: "Name", target: { type: "name" } },
    { index: 2, header: "City", target: { type: "attribute", key: "city", attributeType: "string" } },
    { index: 3, header: "Points", target: { type: "attribute", key: "points", attributeType: "number" } },
    { index: 4, header: "Unsubscribed", target: { type: "opted_out" } },
    { index: 5, header: "Internal notes", target: { type: "skip" } },
  ],
  defaultCountry: "PT",
  updateExisting: true,
  listId: EXAMPLE_IDS.list,
};

const CSV_EXAMPLE = "Phone,Name,City,Points,Unsubscribed,Internal notes\r\n+351912345678,Rita Alves,Porto,120,no,\r\n+14155552671,Maria,San Francisco,80,yes,met at the fair\r\n";

const CSV_RULES =
  `Rules: the first row is the header (it must match the \`header\` of every mapped column); phone numbers may be formatted (spaces, dots, dashes, parentheses, a leading \`+\` or \`00\`) but need a country code unless the import has a \`defaultCountry\` — never guessed; numbers a spreadsheet turned into \`4.41E+11\` are refused; attribute cells must fit the column's type (\`number\`, \`boolean\` as true/false/yes/no/1/0, \`date\` as \`YYYY-MM-DD\`), an empty cell leaves the attribute unset; an \`opted_out\` cell true/yes/1 opts the contact out (method \`import\`, detail the file name), false/no/0 opts back in only a contact an import opted out. A phone that appears again later in the file counts as a duplicate and the last row wins. Importing the same file again changes nothing. The file must be UTF-8 text: a byte that is not is refused with 422 naming its line. A row holds at most ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters (its line break not counted): a longer one is refused with its reason (\`rejected.csv\` then has only its number and reason) and the rows after it are read; a longer header row is refused with 422. A row whose mapped cells hold a NUL character (U+0000) is refused (it cannot be stored); the other rows are imported.`;

export const IMPORTS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "createImport",
    method: "POST",
    path: "/api/v1/imports",
    tag: "Imports",
    summary: "Create an import",
    description:
      "Creates a CSV import job (`awaiting_file`) from its column mapping; send the file next with `PUT /api/v1/imports/{id}/file`. Every column is mapped to `phone` (exactly one), `name`, `opted_out`, an attribute (new or existing, with its type) or `skip`. With `newListName`, the contacts join the list of that name, created if the workspace has none. " +
      CSV_RULES,
    auth: "apiKey",
    body: { schema: importOptionsSchema, strict: true, required: true, example: optionsExample },
    responses: [{ status: 201, description: "The job, waiting for its file.", schema: importSchema, example: awaitingExample, headers: { Location: importLocation } }],
    errors: JSON_BODY_ERRORS,
  },
  {
    operationId: "listImports",
    method: "GET",
    path: "/api/v1/imports",
    tag: "Imports",
    summary: "List imports",
    description: "The workspace's imports, newest first, with their progress or report.",
    auth: "apiKey",
    query: listImportsQuerySchema,
    responses: [{ status: 200, description: "A page of imports.", schema: importPageSchema, example: { data: [completedExample], nextCursor: NEXT_CURSOR } }],
    errors: ["validation_failed"],
    example: { query: { limit: "20" } },
  },
  {
    operationId: "getImport",
    method: "GET",
    path: "/api/v1/imports/{id}",
    tag: "Imports",
    summary: "Get an import's progress and report",
    description:
      "While `processing`, `rowsRead` grows as the file is stored; once `completed`, the counts are the report: `created`, `updated` (name, attributes or consent changed), `unchanged`, `duplicates` (earlier rows of a phone that appears again) and `invalid` (see `rejected.csv`). `failed` means nothing was merged; `error` says why. A merge that a server restart interrupted is resumed when the import is read.",
    auth: "apiKey",
    pathParams: [importIdParam],
    responses: [{ status: 200, description: "The import.", schema: importSchema, example: completedExample }],
    errors: ["not_found"],
  },
  {
    operationId: "uploadImportFile",
    method: "PUT",
    path: "/api/v1/imports/{id}/file",
    tag: "Imports",
    summary: "Send an import's CSV file",
    description:
      "The CSV file as the raw request body with `Content-Type: text/csv` (UTF-8, up to 200 MiB), e.g. `curl -X PUT \"$URL/api/v1/imports/$ID/file\" -H \"x-api-key: $SENDSTREAM_API_KEY\" -H 'Content-Type: text/csv' --data-binary @customers.csv`. The file is streamed into the database as it arrives; the answer (202) comes once it is stored, and the merge runs right after: poll `GET /api/v1/imports/{id}`. A refused upload (413, 422, a broken connection) can be retried; once a file is stored, another one is refused with 409. When the server fails to store the file the answer is still 202, with the job `failed` and `error` saying why (nothing of the file is kept). " +
      CSV_RULES,
    auth: "apiKey",
    pathParams: [importIdParam],
    csvBody: { required: true, description: "The CSV file, header row first (UTF-8, up to 200 MiB).", example: CSV_EXAMPLE },
    responses: [
      {
        status: 202,
        description: "Stored; the merge has started. `failed`, with `error`, when the server could not store the file.",
        schema: importSchema,
        example: processingExample,
        headers: { Location: importLocation },
      },
    ],
    errors: ["not_found", "import_file_already_sent", "payload_too_large", "unsupported_media_type", "validation_failed"],
  },
  {
    operationId: "downloadImportRejectedRows",
    method: "GET",
    path: "/api/v1/imports/{id}/rejected.csv",
    tag: "Imports",
    summary: "Download an import's rejected rows",
    description:
      "Every refused row as CSV: `row` (its row number in the file, the header being row 1), `reason`, then the row's original columns. Cells a spreadsheet would run as a formula are escaped.",
    auth: "apiKey",
    pathParams: [importIdParam],
    responses: [
      {
        status: 200,
        description: "The CSV file (`Content-Disposition: attachment`).",
        contentType: "text/csv",
        textExample:
          "row,reason,Phone,Name,City\r\n4,phone: no country code; pick a default country or write the number with + and its country code,912 345 678,Rita,Porto\r\n9,phone: a spreadsheet turned this number into scientific notation (like 4.41E+11) and lost its last digits; export the column as text,3.51912E+11,Nuno,Faro\r\n",
        headers: { "Content-Disposition": { description: '`attachment; filename="…-rejected.csv"`.', schema: { type: "string" }, required: true } },
      },
    ],
    errors: ["not_found"],
  },
  {
    operationId: "bulkUpsertContacts",
    method: "POST",
    path: "/api/v1/contacts/bulk",
    tag: "Contacts",
    summary: "Upsert many contacts",
    description:
      `A JSON array of up to 1,000 contacts (each \`{ phone, name?, attributes?, consent?, optedOut? }\`, E.164 phones, each phone once), created or updated by phone in one statement: all or nothing, with per-item errors such as \`[3].phone\`. Attributes are merged into the stored ones and must fit their declared types. For more, send a CSV file as the body with \`Content-Type: text/csv\` (\`--data-binary @contacts.csv\`): it becomes an import job (202, \`Location: /api/v1/imports/{id}\`) whose header row maps the columns — \`phone\` (required), \`name\`, \`consent\`, \`opted_out\`, and every other column a text attribute named after its header; existing contacts are updated. ${CSV_CONSENT_TEXT} The file follows the rules of an import's file (UTF-8, the row length cap, other rows refused one by one with their reasons).`,
    auth: "apiKey",
    body: {
      schema: bulkContactsSchema,
      strict: true,
      required: true,
      description: "A JSON array of up to 1,000 contacts (up to 1 MiB).",
      example: [
        { phone: "+351912345678", name: "Rita Alves", attributes: { city: "Porto", points: 120 } },
        { phone: "+14155552671", attributes: { city: "San Francisco" }, optedOut: true },
      ],
    },
    csvBody: {
      required: true,
      description:
        `Or a CSV file with \`Content-Type: text/csv\` (up to 200 MiB): the header row maps the columns (\`phone\` required, \`name\`, \`consent\`, \`opted_out\`, any other column a text attribute named after its header). ${CSV_CONSENT_TEXT}`,
      example: "phone,name,consent,city\r\n+351912345678,Rita Alves,subscribed,Porto\r\n+14155552671,Maria,no,San Francisco\r\n",
    },
    responses: [
      {
        status: 200,
        description: "The JSON array was applied: one entry per item, in order.",
        schema: bulkResultSchema,
        example: {
          object: "bulk_result",
          created: 1,
          updated: 1,
          data: [
            { id: EXAMPLE_IDS.contact, phone: "+351912345678", created: true },
            { id: "ctc_1PqW8eRt5yUi2OpA", phone: "+14155552671", created: false },
          ],
        },
      },
      { status: 202, description: "A CSV body was stored as an import job; poll it at `Location`.", schema: importSchema, example: processingExample, headers: { Location: importLocation } },
    ],
    errors: JSON_BODY_ERRORS,
  },
];
