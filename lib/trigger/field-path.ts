// Field paths into request bodies; defined beside the campaign schemas (lib/campaigns imports no
// lib/trigger module) and used from here by the trigger endpoint.
export * from "@/lib/campaigns/field-path";
