import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { endpointCurl } from "@/lib/openapi/curl";
import { buildOpenApiDocument, queryParameters } from "@/lib/openapi/document";
import { ENDPOINTS } from "@/lib/openapi/registry";
import { EndpointDoc } from "./endpoint";
import { ObjectsSection, returnedObjects } from "./objects-section";
import { objectTitle, pathBreaks, schemaRows } from "./schema-table";

const document = buildOpenApiDocument({ baseUrl: "https://sendstream.example" });
const components = document.components.schemas as Record<string, Record<string, unknown>>;
const operationOf = (endpoint: (typeof ENDPOINTS)[number]) => document.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
const objects = returnedObjects(ENDPOINTS.map(operationOf));
const endpointsHtml = ENDPOINTS.map((endpoint) =>
  renderToStaticMarkup(
    createElement(EndpointDoc, {
      endpoint,
      curl: endpointCurl(endpoint, "https://sendstream.example"),
      queryParameters: queryParameters(endpoint),
      operation: operationOf(endpoint),
      components,
    }),
  ),
).join("");
const objectsHtml = renderToStaticMarkup(createElement(ObjectsSection, { names: objects, components }));

describe("the API reference's objects", () => {
  it("lets a long field path wrap after its dots and between the words of a long name", () => {
    expect(pathBreaks("audience.excludeContactsWithEmptyVariables")).toEqual(["audience.", "exclude", "Contacts", "With", "Empty", "Variables"]);
    expect(pathBreaks("triggerConfig.fields[].fallbacks")).toEqual(["triggerConfig.", "fields[].", "fallbacks"]);
  });

  it("names a schema for readers", () => {
    expect(objectTitle("Campaign")).toBe("Campaign");
    expect(objectTitle("CampaignPage")).toBe("Campaign page");
    expect(objectTitle("SourceSecret")).toBe("Source secret");
  });

  it("lists an object returned by many endpoints once, and each of those endpoints links to it", () => {
    expect(objects).toContain("Campaign");
    expect(new Set(objects).size).toBe(objects.length);
    const returningCampaign = endpointsHtml.split('href="#object-campaign"').length - 1;
    expect(returningCampaign).toBeGreaterThan(5);
    // An object's fields appear in one table, the object's, not in the responses of each endpoint returning it.
    let linkedResponses = 0;
    for (const endpoint of ENDPOINTS) {
      for (const [status, response] of Object.entries(operationOf(endpoint).responses as Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>)) {
        if (!response.content?.["application/json"]?.schema?.$ref) continue;
        linkedResponses += 1;
        expect(endpointsHtml).not.toContain(`aria-label="${status} response of ${endpoint.summary}"`);
      }
    }
    expect(linkedResponses).toBeGreaterThan(20);
    expect(objectsHtml.split('aria-label="The Campaign object"').length - 1).toBe(1);
  });

  it("has a section with every field for each object an endpoint links to", () => {
    const linked = new Set([...endpointsHtml.matchAll(/href="#(object-[a-z]+)"/g)].map((match) => match[1]));
    for (const anchor of linked) expect(objectsHtml).toContain(`id="${anchor}"`);
    for (const name of objects) {
      const rows = schemaRows({ $ref: `#/components/schemas/${name}` }, components);
      expect(rows.length, name).toBeGreaterThan(0);
      const html = objectsHtml.replaceAll("<wbr/>", "");
      for (const row of rows) expect(html, `${name}: ${row.path}`).toContain(`>${row.path.replaceAll("<", "&lt;").replaceAll(">", "&gt;")}`);
    }
  });
});
