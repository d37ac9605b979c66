import { Fragment } from "react";

// A readable rendering of the OpenAPI document: each operation with its parameters and
// answers, then each record's fields. Plain server-rendered HTML, no script needed.

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

function typeOf(schema: Json | undefined): string {
  if (!schema) return "";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() ?? "";
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).filter(Boolean).join(" or ");
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array") return `${typeOf(schema.items as Json)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(" or ");
  if (typeof schema.type === "string") return schema.format ? `${schema.type} (${schema.format})` : schema.type;
  return "any";
}

function successRecord(operation: Json): string {
  const schema = ((operation.responses as Json)?.["200"] as Json | undefined)?.content as Json | undefined;
  const body = (schema?.["application/json"] as Json | undefined)?.schema as Json | undefined;
  const data = (body?.properties as Json | undefined)?.data as Json | undefined;
  if (!data) return "";
  return data.type === "array" ? `{ data: ${typeOf(data.items as Json)}[], pagination: Pagination }` : `{ data: ${typeOf(data)} }`;
}

export function ApiDocs({ document }: { document: Json }) {
  const info = document.info as { title: string; version: string; description?: string };
  const paths = document.paths as Record<string, Record<string, Json>>;
  const schemas = ((document.components as Json)?.schemas ?? {}) as Record<string, Json>;
  return (
    <>
      <div className="page-header">
        <h1>API docs</h1>
        <a href="/api/v1/openapi.json">OpenAPI JSON</a>
      </div>
      <section className="detail">
        <h2 style={{ fontSize: 18, marginBottom: 8 }}>
          {info.title} <span className="subtle">v{info.version}</span>
        </h2>
        {info.description ? <p>{info.description}</p> : null}
        <p className="subtle">
          Base URL: <code>/api/v1</code>. Send <code>Authorization: Bearer fbk_…</code> with every request.
        </p>
      </section>

      <nav aria-label="Endpoints" className="detail endpoint-index">
        <h2 style={{ fontSize: 16, marginBottom: 8 }}>Endpoints</h2>
        <ul>
          {Object.entries(paths).flatMap(([path, operations]) =>
            Object.entries(operations).map(([method, operation]) => (
              <li key={`${method} ${path}`}>
                <a href={`#${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`}>
                  <code>
                    {method.toUpperCase()} {path}
                  </code>
                </a>{" "}
                — {String(operation.summary ?? "")}
              </li>
            )),
          )}
        </ul>
      </nav>

      {Object.entries(paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => {
          const parameters = (operation.parameters ?? []) as Parameter[];
          const responses = (operation.responses ?? {}) as Record<string, { description?: string }>;
          const body = (operation.requestBody as Json | undefined)?.content as Record<string, { schema?: Json }> | undefined;
          const bodySchema = body ? Object.values(body)[0]?.schema : undefined;
          return (
            <section key={`${method} ${path}`} className="detail endpoint" id={`${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`}>
              <h2>
                <span className="method">{method.toUpperCase()}</span> <code>/api/v1{path}</code>
              </h2>
              <p>
                <strong>{String(operation.summary ?? "")}</strong>
                {operation.description ? ` ${String(operation.description)}` : ""}
              </p>
              <p className="subtle">
                Scope: <code>{String(operation["x-scope"] ?? "read")}</code>
                {successRecord(operation) ? (
                  <>
                    {" "}
                    · Answers <code>{successRecord(operation)}</code>
                  </>
                ) : null}
              </p>
              {parameters.length ? (
                <>
                  <h3>Parameters</h3>
                  <div className="scroll-x">
                    <table className="docs-table">
                      <thead>
                        <tr>
                          <th scope="col">Name</th>
                          <th scope="col">In</th>
                          <th scope="col">Type</th>
                          <th scope="col">Description</th>
                        </tr>
                      </thead>
                      <tbody>
                        {parameters.map((p) => (
                          <tr key={`${p.in}-${p.name}`}>
                            <td>
                              <code>{p.name}</code>
                              {p.required ? " (required)" : ""}
                            </td>
                            <td>{p.in}</td>
                            <td>
                              <code>{typeOf(p.schema)}</code>
                            </td>
                            <td>{p.description ?? ""}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </>
              ) : null}
              {bodySchema ? (
                <>
                  <h3>Body (JSON or form-urlencoded)</h3>
                  <FieldTable schema={bodySchema} />
                </>
              ) : null}
              <h3>Answers</h3>
              <dl className="meta">
                {Object.entries(responses).map(([code, response]) => (
                  <Fragment key={code}>
                    <div>
                      <dt>{code}</dt>
                      <dd>{response.description ?? ""}</dd>
                    </div>
                  </Fragment>
                ))}
              </dl>
            </section>
          );
        }),
      )}

      <h2 style={{ fontSize: 20, margin: "24px 0 12px" }}>Records</h2>
      {Object.entries(schemas).map(([name, schema]) => (
        <section key={name} className="detail endpoint" id={`schema-${name}`}>
          <h2>
            <code>{name}</code>
          </h2>
          <FieldTable schema={schema} />
        </section>
      ))}
    </>
  );
}

function FieldTable({ schema }: { schema: Json }) {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = (schema.required ?? []) as string[];
  if (!Object.keys(properties).length) return <p className="subtle">{typeOf(schema)}</p>;
  return (
    <div className="scroll-x">
      <table className="docs-table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(properties).map(([field, property]) => (
            <tr key={field}>
              <td>
                <code>{field}</code>
                {required.includes(field) ? "" : " (optional)"}
              </td>
              <td>
                <code>{typeOf(property)}</code>
              </td>
              <td>{typeof property.description === "string" ? property.description : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
