import { triggerMethodNotAllowed, triggerPost } from "@/lib/trigger/handler";

export const POST = triggerPost;
export const GET = triggerMethodNotAllowed;
export const PUT = triggerMethodNotAllowed;
export const PATCH = triggerMethodNotAllowed;
export const DELETE = triggerMethodNotAllowed;
