// Endpoints of the contacts area; spread into ENDPOINTS in ../registry.ts.
import type { Endpoint } from "../registry";

export const CONTACTS_ENDPOINTS: Endpoint[] = [];
