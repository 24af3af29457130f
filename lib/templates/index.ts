export * from "./types";
export { listTemplateVariables, describeVariable, placeholderNames } from "./variables";
export { renderTemplate, previewTemplate, normalizeParameterText, TemplateRenderError, type RenderedTemplate, type TemplatePreview } from "./render";
export { resolveVariableValues, attributeText, type ResolveResult } from "./resolve";
export { SANDBOX_TEMPLATES, type TemplateDefinition } from "./sandbox";
