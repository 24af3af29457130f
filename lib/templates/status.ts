// What a template's review status means for its campaigns, in words. Pure (client components use it).

/** Statuses that stop a template from sending until WhatsApp (or the user, by editing it) clears them. */
export const BLOCKING_TEMPLATE_STATUSES = ["PAUSED", "DISABLED"] as const;

export function isBlockingTemplateStatus(status: string): boolean {
  return (BLOCKING_TEMPLATE_STATUSES as readonly string[]).includes(status.toUpperCase());
}

/** Why a template that is not approved cannot send, in words (banners, launch checks, refused sends); null when approved. */
export function templateBlockReason(template: { name: string; status: string; statusReason?: string | null }): string | null {
  const status = template.status.toUpperCase();
  if (status === "APPROVED") return null;
  const why = template.statusReason ? ` ${template.statusReason}` : "";
  switch (status) {
    case "PAUSED":
      return `WhatsApp paused the template “${template.name}” for low quality: nothing is sent with it until WhatsApp lifts the pause.${why}`;
    case "DISABLED":
      return `WhatsApp disabled the template “${template.name}”: it can no longer send. Write a new template and use it instead.${why}`;
    case "REJECTED":
      return `WhatsApp rejected the template “${template.name}”.${why}`;
    case "PENDING":
      return `The template “${template.name}” is waiting for WhatsApp's review; only approved templates send.`;
    default:
      return `The template “${template.name}” is ${status.toLowerCase()}; WhatsApp only sends approved templates.`;
  }
}
