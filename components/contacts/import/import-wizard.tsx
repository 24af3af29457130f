"use client";

import { ArrowLeft, ArrowRight } from "lucide-react";
import { useRouter } from "next/navigation";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/http/client";
import { cn } from "@/lib/utils";
import { formatCount } from "../format";
import type { AttributeDefinition, ContactImport, ContactList, Page } from "../types";
import { useApi } from "../use-api";
import { readPreview, scanFile, type CsvPreview, type CsvScan } from "./csv-scan";
import { useWorkspaceDefaultCountry } from "./default-country";
import { FileStep } from "./file-step";
import { MappingStep } from "./mapping-step";
import { guessColumns, subscribesContacts, toColumnTargets, validateColumns, type ColumnChoice } from "./mapping";
import { OptionsStep, type ListChoice } from "./options-step";
import { uploadCsv } from "./upload";

const STEPS = ["Choose a file", "Map columns", "Options", "Import"] as const;

interface Loaded {
  file: File;
  preview: CsvPreview;
}

/** Upload → map → options → import. The file is read in the browser; only the last step sends it. */
export function ImportWizard() {
  const router = useRouter();
  const attributes = useApi<{ data: AttributeDefinition[] }>("/api/v1/contact-attributes");
  const lists = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const existing = React.useMemo(() => attributes.data?.data ?? [], [attributes.data]);

  const [step, setStep] = React.useState(0);
  const [loaded, setLoaded] = React.useState<Loaded | null>(null);
  const [fileError, setFileError] = React.useState<string | null>(null);
  const [scan, setScan] = React.useState<CsvScan | null>(null);
  const [scanProgress, setScanProgress] = React.useState(0);
  const [choices, setChoices] = React.useState<ColumnChoice[]>([]);
  const [showErrors, setShowErrors] = React.useState(false);
  // The workspace's default country until this import picks another (for this import only).
  const workspaceCountry = useWorkspaceDefaultCountry();
  const [chosenCountry, chooseCountry] = React.useState<string | null>(null);
  const defaultCountry = chosenCountry ?? workspaceCountry.country;
  const [updateExisting, setUpdateExisting] = React.useState(true);
  const [permission, setPermission] = React.useState(false);
  const [list, setList] = React.useState<ListChoice>({ kind: "none" });
  const [listError, setListError] = React.useState<string | null>(null);
  const [submitting, setSubmitting] = React.useState<null | { phase: "creating" } | { phase: "uploading"; fraction: number }>(null);
  const [submitError, setSubmitError] = React.useState<string | null>(null);
  const cancelScan = React.useRef<(() => void) | null>(null);

  React.useEffect(() => () => cancelScan.current?.(), []);

  async function pickFile(file: File) {
    setFileError(null);
    if (file.size === 0) {
      setFileError("This file is empty.");
      return;
    }
    let preview: CsvPreview;
    try {
      preview = await readPreview(file);
    } catch {
      setFileError("This file could not be read as CSV.");
      return;
    }
    if (preview.headers.length === 0) {
      setFileError("This file has no header row.");
      return;
    }
    cancelScan.current?.();
    setScan(null);
    setScanProgress(0);
    setLoaded({ file, preview });
    setChoices(guessColumns(preview.headers, preview.rows, existing));
    setShowErrors(false);
    setStep(1);
    cancelScan.current = scanFile(file, preview.headers.length, {
      onProgress: setScanProgress,
      onDone: setScan,
      onError: (message) => setFileError(`Reading the file failed: ${message}`),
    });
  }

  const validation = validateColumns(choices, existing);
  const needsPermission = subscribesContacts(choices);
  const permissionError = needsPermission && !permission ? "Confirm you have permission to message the contacts this file subscribes." : null;
  const mappingValid = !validation.overall && Object.keys(validation.columns).length === 0 && !permissionError;

  function next() {
    if (step === 1) {
      setShowErrors(true);
      if (!mappingValid) return;
    }
    if (step === 2) {
      if (list.kind === "new" && !list.name.trim()) return setListError("Name the new list.");
      if (list.kind === "existing" && !list.listId) return setListError("Pick a list.");
      setListError(null);
    }
    setStep((s) => Math.min(s + 1, STEPS.length - 1));
  }

  async function start() {
    if (!loaded) return;
    setSubmitError(null);
    setSubmitting({ phase: "creating" });
    const body = {
      fileName: loaded.file.name,
      columns: toColumnTargets(loaded.preview.headers, choices, existing),
      ...(defaultCountry ? { defaultCountry } : {}),
      updateExisting,
      permissionConfirmed: needsPermission && permission,
      ...(list.kind === "existing" ? { listId: list.listId } : {}),
      ...(list.kind === "new" ? { newListName: list.name.trim() } : {}),
    };
    const created = await requestJson<ContactImport>("/api/v1/imports", { method: "POST", body });
    if (!created.ok) {
      setSubmitting(null);
      const details = created.problem.errors?.map((error) => `${error.path}: ${error.message}`).join(" ");
      setSubmitError(details ? `${created.problem.detail} ${details}` : created.problem.detail);
      return;
    }
    setSubmitting({ phase: "uploading", fraction: 0 });
    const uploaded = await uploadCsv(`/api/v1/imports/${created.data.id}/file`, loaded.file, (fraction) => setSubmitting({ phase: "uploading", fraction }));
    if (!uploaded.ok) {
      setSubmitting(null);
      setSubmitError(uploaded.problem.detail);
      return;
    }
    router.push(`/contacts/imports/${created.data.id}${scan ? `?rows=${scan.rows}` : ""}`);
  }

  const mapped = choices.filter((choice) => choice.kind !== "skip").length;
  return (
    <div className="grid gap-6">
      <ol aria-label="Import steps" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {STEPS.map((label, index) => (
          <li key={label} aria-current={index === step ? "step" : undefined} className={cn("flex items-center gap-2 text-muted-foreground", index === step && "font-medium text-foreground")}>
            <span className={cn("flex size-6 items-center justify-center rounded-full border text-xs tabular-nums", index <= step && "border-primary bg-primary text-primary-foreground")}>{index + 1}</span>
            {label}
          </li>
        ))}
      </ol>

      {loaded && step > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="file-summary">
          <span className="font-medium text-foreground">{loaded.file.name}</span> ·{" "}
          {scan ? `${formatCount(scan.rows)} ${scan.rows === 1 ? "row" : "rows"}` : `counting rows… ${Math.round(scanProgress * 100)}%`} · {loaded.preview.headers.length} columns
        </p>
      )}

      {step === 0 && <FileStep onFile={pickFile} error={fileError ?? (attributes.problem ? attributes.problem.detail : null)} disabled={attributes.loading || Boolean(attributes.problem)} />}
      {step === 1 && loaded && (
        <MappingStep
          preview={loaded.preview}
          scan={scan}
          choices={choices}
          errors={showErrors ? validation.columns : {}}
          existing={existing}
          defaultCountry={defaultCountry}
          onChoice={(index, choice) => setChoices((current) => current.map((c, i) => (i === index ? choice : c)))}
          onDefaultCountry={chooseCountry}
          permission={permission}
          onPermission={setPermission}
          permissionError={showErrors ? permissionError : null}
        />
      )}
      {step === 2 && (
        <OptionsStep
          updateExisting={updateExisting}
          onUpdateExisting={setUpdateExisting}
          list={list}
          onList={(choice) => {
            setList(choice);
            setListError(null);
          }}
          lists={lists.data?.data ?? []}
          listError={listError}
        />
      )}
      {step === 3 && loaded && (
        <dl className="grid gap-3 rounded-xl border bg-card p-5 text-sm shadow-xs sm:grid-cols-2">
          <div><dt className="text-muted-foreground">File</dt><dd className="font-medium break-all">{loaded.file.name}</dd></div>
          <div><dt className="text-muted-foreground">Rows</dt><dd className="font-medium">{scan ? formatCount(scan.rows) : "Still counting…"}</dd></div>
          <div><dt className="text-muted-foreground">Columns imported</dt><dd className="font-medium">{mapped} of {choices.length}</dd></div>
          <div><dt className="text-muted-foreground">Default country</dt><dd className="font-medium">{defaultCountry || "None"}</dd></div>
          <div>
            <dt className="text-muted-foreground">Consent</dt>
            <dd className="font-medium">
              {choices.some((choice) => choice.kind === "consent") ? (needsPermission ? "From the file; permission confirmed" : "From the file") : "Not in the file (new contacts: unknown)"}
            </dd>
          </div>
          <div><dt className="text-muted-foreground">Existing contacts</dt><dd className="font-medium">{updateExisting ? "Update their attributes" : "Leave them as they are"}</dd></div>
          <div>
            <dt className="text-muted-foreground">List</dt>
            <dd className="font-medium">
              {list.kind === "none" ? "None" : list.kind === "new" ? `New: ${list.name}` : lists.data?.data.find((item) => item.id === list.listId)?.name}
            </dd>
          </div>
        </dl>
      )}

      {showErrors && step === 1 && validation.overall && <p role="alert" className="text-sm text-destructive">{validation.overall}</p>}
      {submitError && <p role="alert" className="text-sm text-destructive">{submitError}</p>}
      {submitting?.phase === "uploading" && (
        <div className="grid gap-1.5">
          <div role="progressbar" aria-label="Uploading the file" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(submitting.fraction * 100)} className="h-2 overflow-hidden rounded-full bg-muted">
            <div className="h-full bg-primary transition-[width]" style={{ width: `${submitting.fraction * 100}%` }} />
          </div>
          <p className="text-xs text-muted-foreground">Uploading… {Math.round(submitting.fraction * 100)}%</p>
        </div>
      )}

      {step > 0 && (
        <div className="flex flex-wrap justify-between gap-2 border-t pt-5">
          <Button variant="ghost" onClick={() => setStep((s) => s - 1)} disabled={Boolean(submitting)}>
            <ArrowLeft aria-hidden />
            {step === 1 ? "Choose another file" : "Back"}
          </Button>
          {step < 3 ? (
            <Button onClick={next}>Continue<ArrowRight aria-hidden /></Button>
          ) : (
            <Button onClick={start} disabled={Boolean(submitting)}>{submitting ? "Starting…" : "Start import"}</Button>
          )}
        </div>
      )}
    </div>
  );
}
