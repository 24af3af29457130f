// Meta's template component shapes as returned by `GET /{waba-id}/message_templates` (the parts we use).

export const TEMPLATE_STATUSES = ["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export type ParameterFormat = "POSITIONAL" | "NAMED";

export interface TemplateLike {
  parameterFormat: ParameterFormat;
  components: unknown[];
}

export interface TemplateVariable {
  /** `header.<name>`, `body.<name>` or `button.<index>.<name>`. */
  key: string;
  component: "header" | "body" | "button";
  /** `1`, `2`… for positional templates, the parameter name for named ones, or the media kind for a media header. */
  name: string;
  buttonIndex?: number;
  /** True for an image / video / document header: the value is a public link to the file. */
  media?: boolean;
  /** Example value from the template definition, when Meta has one. */
  example?: string;
}

/** One entry of the Cloud API send request's `template.components`. */
export type SendParameter =
  | { type: "text"; text: string; parameter_name?: string }
  | { type: "image" | "video" | "document"; image?: { link: string }; video?: { link: string }; document?: { link: string } };

export type SendComponent =
  | { type: "header" | "body"; parameters: SendParameter[] }
  | { type: "button"; sub_type: "url"; index: string; parameters: SendParameter[] };

export const MEDIA_HEADER_FORMATS = ["IMAGE", "VIDEO", "DOCUMENT"] as const;

export interface RawComponent {
  type?: string;
  format?: string;
  text?: string;
  example?: {
    header_text?: string[];
    header_handle?: string[];
    body_text?: string[][];
    header_text_named_params?: { param_name: string; example: string }[];
    body_text_named_params?: { param_name: string; example: string }[];
  };
  buttons?: RawButton[];
}

export interface RawButton {
  type?: string;
  text?: string;
  url?: string;
  phone_number?: string;
  example?: string[] | string;
}

export function asComponents(components: unknown[]): RawComponent[] {
  return components.filter((c): c is RawComponent => typeof c === "object" && c !== null);
}

export function findComponent(components: unknown[], type: "HEADER" | "BODY" | "FOOTER" | "BUTTONS"): RawComponent | undefined {
  return asComponents(components).find((c) => String(c.type ?? "").toUpperCase() === type);
}
