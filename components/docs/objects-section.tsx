import { InlineText } from "./inline-text";
import { objectAnchor, objectTitle, referencedObject, SchemaTable } from "./schema-table";

type JsonSchema = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };

/** The objects these operations return as a whole, in the order they first do. */
export function returnedObjects(operations: Operation[]): string[] {
  const names = operations.flatMap((operation) => Object.values(operation.responses ?? {}).map((response) => referencedObject(response.content?.["application/json"]?.schema)));
  return [...new Set(names.filter((name): name is string => name !== null))];
}

/** Each object the endpoints return as a whole, its fields listed once (the endpoints link here). */
export function ObjectsSection({ names, components }: { names: string[]; components: Record<string, JsonSchema> }) {
  if (names.length === 0) return null;
  return (
    <section id="objects" aria-labelledby="objects-title" className="scroll-mt-20 border-t pt-12">
      <h2 id="objects-title" className="text-2xl font-semibold tracking-tight">
        Objects
      </h2>
      <p className="mt-2 text-[15px] text-muted-foreground">What the endpoints above return, field by field.</p>
      {names.map((name) => {
        const schema = components[name] ?? {};
        const title = `The ${objectTitle(name)} object`;
        return (
          <section key={name} id={objectAnchor(name)} aria-labelledby={`${objectAnchor(name)}-title`} className="scroll-mt-20 space-y-3 border-t py-10 first-of-type:border-t-0">
            <h3 id={`${objectAnchor(name)}-title`} className="text-xl font-semibold tracking-tight">
              {title}
            </h3>
            {typeof schema.description === "string" ? (
              <p className="text-[15px] leading-relaxed text-muted-foreground">
                <InlineText text={schema.description} />
              </p>
            ) : null}
            <SchemaTable schema={{ $ref: `#/components/schemas/${name}` }} components={components} caption={title} />
          </section>
        );
      })}
    </section>
  );
}
