import "server-only";
import { z } from "zod";
import type { Operation } from "./api/define-operation";
import { type ErrorCode, errorStatus } from "./api/errors";
import { operations } from "./api/operations";
import { SEARCH_TOTAL_LIMIT } from "./totals";
import { eventPayloads } from "./webhooks/payloads";

// The OpenAPI 3.1 document, built from the same zod schemas that validate requests and shape
// responses, so it cannot drift from the code. Served at GET /api/v1/openapi.json.

const errorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      current: z
        .unknown()
        .optional()
        .meta({ description: "With precondition_failed: the record as it is now (its ETag is in the ETag header)." }),
      requestId: z.string(),
    }),
  })
  .meta({ id: "Error" });

const paginationRecord = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    total: z.number().int().min(0).meta({
      description: `Every matching record, except that a search counts at most ${SEARCH_TOTAL_LIMIT.toLocaleString("en")}: past that, total is ${SEARCH_TOTAL_LIMIT} and totalIsExact is false.`,
    }),
    totalPages: z.number().int().min(0),
    hasNextPage: z.boolean(),
    totalIsExact: z
      .boolean()
      .optional()
      .meta({ description: "On the post and changelog lists: false when a search matched more records than total says." }),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "On the post and changelog lists: pass as `cursor` for the page after this one; null on the last page." }),
  })
  .meta({ id: "Pagination" });

type JsonSchema = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idOf = (schema: z.ZodType) => (z.globalRegistry.get(schema)?.id as string | undefined) ?? "";

function inline(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
  return rest;
}

function parameters(schema: z.ZodObject, where: "query" | "path"): JsonSchema[] {
  const json = inline(schema, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const isArray = rest.type === "array";
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(isArray ? { style: "form", explode: true } : {}),
    };
  });
}

const errorResponses = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: ERROR_DESCRIPTIONS[code] ?? "Error", content: { "application/json": { schema: ref("Error") } } },
    ]),
  );

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "A parameter or field failed validation; details names each field.",
  401: "Missing, malformed, unknown or revoked API key.",
  403: "The key lacks the scope, or a cross-site browser write.",
  404: "No such resource.",
  405: "Wrong method; see the Allow header.",
  413: "The body is over 64 KiB.",
  415: "The body is neither form-urlencoded nor JSON.",
  412: "If-Match names a version that is no longer current; nothing changed. error.current is the record as it is now.",
  414: "The URL is over 8 KiB.",
  429: "Over the key's rate (or, without a valid key, the address's); see Retry-After and the RateLimit headers.",
  431: "The request line and headers are over 32 KiB.",
  503: "The database is unavailable, frozen, or locked by another writer past the budget; nothing changed. See Retry-After.",
};

const SUCCESS_DESCRIPTIONS = { 200: "Success.", 201: "Created.", 202: "Accepted: queued for delivery.", 204: "Done; no body." };

function conditionalHeader(name: string, description: string): JsonSchema {
  return { name, in: "header", required: false, description, schema: { type: "string" } };
}

function operation(spec: Operation): JsonSchema {
  const record = ref(idOf(spec.record));
  const success =
    spec.list === "cursor"
      ? {
          type: "object",
          properties: {
            data: { type: "array", items: record },
            nextCursor: { type: ["string", "null"], description: "Pass as cursor for the next page; null on the last." },
          },
          required: ["data", "nextCursor"],
        }
      : spec.list
        ? {
            type: "object",
            properties: { data: { type: "array", items: record }, pagination: ref("Pagination") },
            required: ["data", "pagination"],
          }
        : { type: "object", properties: { data: record }, required: ["data"] };
  const body = spec.body ? inline(spec.body, "input") : undefined;
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: [{ bearer: [] }],
    "x-scope": spec.scope,
    parameters: [
      ...(spec.params ? parameters(spec.params, "path") : []),
      ...(spec.query ? parameters(spec.query, "query") : []),
      ...(spec.etag ? [conditionalHeader("If-None-Match", "An ETag this resource gave; if it is still current, the answer is 304 with no body.")] : []),
      ...(spec.ifMatch
        ? [conditionalHeader("If-Match", "The ETag of the version being edited (\"v3\"), or *; without it the change applies unconditionally.")]
        : []),
    ],
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { "application/x-www-form-urlencoded": { schema: body }, "application/json": { schema: body } },
          },
        }
      : {}),
    responses: {
      [String(spec.status ?? 200)]: {
        description: SUCCESS_DESCRIPTIONS[spec.status ?? 200],
        ...(spec.list === true ? { headers: { Link: { description: "RFC 8288 links: first, prev, next, last.", schema: { type: "string" } } } } : {}),
        ...(spec.etag || spec.ifMatch ? { headers: { ETag: { description: "The strong entity tag of this version.", schema: { type: "string" } } } } : {}),
        ...(spec.status === 204 ? {} : { content: { "application/json": { schema: success } } }),
      },
      ...(spec.etag ? { "304": { description: "If-None-Match named the current version: not modified." } } : {}),
      ...errorResponses(
        ...(spec.body || spec.query || spec.params ? [400] : []),
        401,
        ...(spec.scope !== "read" ? [403] : []),
        ...(spec.params ? [404] : []),
        405,
        ...(spec.ifMatch ? [412] : []),
        ...(spec.body ? [413, 415] : []),
        414,
        429,
        431,
        503,
      ),
    },
  };
}

/** A schema as the document's components hold it: its own registered parts become refs to them. */
function componentSchema(schema: z.ZodType, schemas: Record<string, JsonSchema>): JsonSchema {
  // A registered schema comes back as {$ref: "#/$defs/Id", $defs}; point refs at components.
  const json = JSON.parse(
    JSON.stringify(z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" })).replaceAll("#/$defs/", "#/components/schemas/"),
  ) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const { $schema: _, $defs, ...rest } = json;
  Object.assign(schemas, $defs ?? {});
  return rest;
}

const webhookHeaders = [
  ["webhook-id", "The event's id: the same on every attempt, redelivery and replay, so a receiver can drop duplicates."],
  ["webhook-timestamp", "Seconds since the Unix epoch when this attempt was signed; refuse one too far from now."],
  [
    "webhook-signature",
    "v1, and the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret (the base64 after whsec_); two, space-separated, for 24 hours after a rotation.",
  ],
].map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } }));

/** The event catalogue (OpenAPI 3.1 `webhooks`): what an endpoint may be sent, as Standard Webhooks deliver it. */
function webhookEvents(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(eventPayloads).map(([type, payload]) => {
      const schema = componentSchema(payload, schemas);
      return [
        type,
        {
          post: {
            summary: type,
            description: `${schema.description ?? ""} A Standard Webhooks POST of application/json: verify it with any Standard Webhooks library.`.trim(),
            parameters: webhookHeaders,
            requestBody: { required: true, content: { "application/json": { schema } } },
            responses: {
              "2XX": {
                description: "Received. Anything else, or no answer within 10 seconds, is retried (about 30 s, 2 min, 10 min, 1 h, 6 h, 24 h).",
              },
            },
          },
        },
      ];
    }),
  );
}

let cached: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const records = [errorBody, paginationRecord, ...operations.map((o) => o.record)];
  const schemas: Record<string, JsonSchema> = {};
  for (const schema of records) {
    const rest = componentSchema(schema, schemas);
    if (!("$ref" in rest)) schemas[idOf(schema)] = rest;
  }
  const webhooks = webhookEvents(schemas);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of operations) paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation(spec) };
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Feedback service API",
      version: "1.0.0",
      description:
        "Posts, comments and changelogs, the audit trail and webhooks. Every request carries Authorization: Bearer <API key>. Lists answer {data, pagination} and a Link header (the audit trail and webhook deliveries: {data, nextCursor}); errors answer {error: {code, message, details, requestId}}. `webhooks` lists the events an endpoint can receive.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key starting with fbk_." } },
      schemas,
    },
    paths,
    webhooks,
  };
  return cached;
}
