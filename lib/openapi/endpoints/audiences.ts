// Endpoints of the audiences area; spread into ENDPOINTS in ../registry.ts.
import type { Endpoint } from "../registry";

export const AUDIENCES_ENDPOINTS: Endpoint[] = [];
