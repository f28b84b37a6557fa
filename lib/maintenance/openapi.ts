// The maintenance API's OpenAPI 3.1 document, generated from the routes table and the same zod
// schemas the handlers parse with (zod 4 emits JSON Schema 2020-12, OpenAPI 3.1's dialect).
import { z } from 'zod';
import { ERROR_STATUS } from '../core/errors';
import { MAINTENANCE_ROUTES, type MaintenanceRoute } from './routes';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    // Query numbers are digit strings on the wire; the document shows the integer they mean.
    override: (ctx) => {
      if (ctx.jsonSchema.type === 'integer') delete ctx.jsonSchema.pattern;
    },
  }) as Json;
  return rest;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Malformed parameter, date, body or JSON, or a lookup value that matches no configured value (`data` names each field).',
  401: 'Access token missing or not valid.',
  403: 'The token does not give access to this plant.',
  404: 'Unknown plant, or (stock level) unknown part.',
  412: 'A precondition is not met (see the operation).',
  413: 'Request body too large.',
  415: 'Body not sent as application/json.',
  500: 'Unexpected server error (`data` holds a request id for support).',
};

function codesFor(status: number): string[] {
  return Object.entries(ERROR_STATUS)
    .filter(([code, s]) => s === status && !code.startsWith('QUERY_'))
    .map(([code]) => code);
}

function errorResponse(status: number): Json {
  return {
    description: STATUS_TEXT[status] ?? 'Error.',
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codesFor(status) } } }],
        },
      },
    },
  };
}

function parameters(route: MaintenanceRoute): Json[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = route.query
    ? Object.entries((schemaOf(route.query, 'input').properties ?? {}) as Record<string, Json>).map(
        ([name, schema]) => {
          const { description, ...rest } = schema;
          return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: rest };
        },
      )
    : [];
  const headers = (route.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: false,
    description: h.description,
    schema: { type: 'string' },
  }));
  return [...path, ...query, ...headers];
}

function okResponse(route: MaintenanceRoute): Json {
  if (route.record) {
    const paged = {
      type: 'object',
      required: ['data', 'page', 'totalPages', 'pageSize'],
      properties: {
        data: { type: 'array', items: schemaOf(route.record, 'output') },
        page: { type: 'integer' },
        totalPages: { type: 'integer', description: 'ceil(total / pageSize); 0 when there are no records.' },
        pageSize: { type: 'integer' },
      },
    };
    return { description: 'One page of records.', content: { 'application/json': { schema: paged } } };
  }
  if (!route.authorized)
    return { description: 'This OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } };
  return {
    description: 'Done: the write envelope.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
  };
}

function operation(route: MaintenanceRoute): Json {
  const statuses = route.authorized ? [...new Set([...route.errors, 401, 403, 500])].sort() : [500];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.authorized ? {} : { security: [] }),
    parameters: parameters(route),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } }
      : {}),
    responses: { 200: okResponse(route), ...Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s)])) },
  };
}

export function maintenanceOpenApi(serverUrl?: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of MAINTENANCE_ROUTES)
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Maintenance API',
      version: '1.0.0',
      description: 'Jobs, assets, tasks and stock levels per plant. See docs/maintenance-api.md.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ plantToken: [] }],
    paths,
    components: {
      securitySchemes: {
        plantToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A maintenance token of the plant (one-time link from the operator), or a query-API client token allowed on the plant.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['status', 'code', 'message', 'data'],
          properties: {
            status: { const: 'ERROR' },
            code: { type: 'string' },
            message: { type: 'string' },
            data: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' } } } },
          },
        },
        Success: {
          type: 'object',
          required: ['status', 'code', 'message', 'data'],
          properties: {
            status: { const: 'SUCCESS' },
            code: { const: 'SUCCESS' },
            message: { type: 'null' },
            data: { type: 'array', items: { type: 'object' } },
          },
        },
      },
    },
  };
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The base address clients should call, read from the request for the document: deployed, API
 * Gateway passes the API's (or the custom domain's) Host and X-Forwarded-Proto https; the local
 * stack answers plain http on its own host and port. Undefined when the Host is absent or odd,
 * so a forged header never ends up in the document.
 */
export function serverUrlOf(headers: Readonly<Record<string, string | undefined>> | undefined): string | undefined {
  const header = (name: string) => Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const host = header('host');
  if (!host || !HOST.test(host)) return undefined;
  const proto = header('x-forwarded-proto') ?? 'http';
  return proto === 'http' || proto === 'https' ? `${proto}://${host}` : undefined;
}

const documents = new Map<string, Json>();

/** The document for one base address, built once per address a container sees. */
export function maintenanceOpenApiFor(serverUrl: string | undefined): Json {
  const key = serverUrl ?? '';
  let document = documents.get(key);
  if (!document) {
    document = maintenanceOpenApi(serverUrl);
    // A container sees its API's one or two hosts; the bound only guards against odd traffic.
    if (documents.size < 16) documents.set(key, document);
  }
  return document;
}
