import { z } from 'zod';

type Json = Record<string, unknown>;

/**
 * A tool's zod schema as the JSON Schema sent in tools/list: the input side (defaults optional),
 * an object at the root, and none of the keys zod writes that tell a client nothing yet cost every
 * session context (see compact).
 */
export function toolJsonSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  delete json.$schema;
  if (json.type !== 'object') json.type = 'object';
  return compact(json, true);
}

function isEmptyObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length;
}

/**
 * The same schema, shorter: no safe-integer bounds of an unbounded `.int()` (real bounds come from
 * the schema's own min/max), no `additionalProperties: {}` of a loose object (extra keys are allowed
 * by default), no empty `properties` below the root (the root keeps it: some clients require it),
 * and a nullable object as `type: [t, "null"]` rather than an anyOf with {type: "null"}.
 */
function compact(json: Json, root = false): Json {
  for (const [key, value] of Object.entries(json)) {
    if (Array.isArray(value)) json[key] = value.map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? compact(v as Json) : v));
    else if (value !== null && typeof value === 'object' && key !== 'default' && key !== 'const') json[key] = key === 'properties' ? compactEach(value as Json) : compact(value as Json);
  }
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  if (isEmptyObject(json.additionalProperties)) delete json.additionalProperties;
  if (!root && isEmptyObject(json.properties)) delete json.properties;
  return mergeNullable(json);
}

/** `properties` maps names to schemas: compact each schema, never the map itself. */
function compactEach(properties: Json): Json {
  for (const [name, schema] of Object.entries(properties)) properties[name] = compact(schema as Json);
  return properties;
}

/** {anyOf: [{type: "object", ...}, {type: "null"}]} -> {type: ["object", "null"], ...} (enums and consts stay as they are). */
function mergeNullable(json: Json): Json {
  const any = json.anyOf;
  if (!Array.isArray(any) || any.length !== 2) return json;
  const nullAt = any.findIndex((s) => isOnlyNull(s));
  if (nullAt < 0) return json;
  const other = any[1 - nullAt] as Json;
  if (typeof other.type !== 'string' || 'enum' in other || 'const' in other) return json;
  const { anyOf: _, ...rest } = json;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

function isOnlyNull(s: unknown): boolean {
  return s !== null && typeof s === 'object' && Object.keys(s).length === 1 && (s as Json).type === 'null';
}
