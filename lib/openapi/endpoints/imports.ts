// Endpoints of the imports area; spread into ENDPOINTS in ../registry.ts.
import type { Endpoint } from "../registry";

export const IMPORTS_ENDPOINTS: Endpoint[] = [];
