// SPDX-License-Identifier: MIT
// wgscan.js: the wgscan library in the browser. The same C code and WGSL kernels as the
// native library, compiled to WebAssembly (wgscan.wasm, beside this file); this module
// is its WebGPU backend (the "wgpu" imports: WebGPU objects live in a handle table here)
// and the API for web developers. Types: wgscan.d.ts; guide: README.md.
//
//   import { Wgscan } from 'wgscan';
//   const wg = await Wgscan.create(device);              // any GPUDevice the page has
//   const { output } = await wg.scan(new Uint32Array([3, 1, 4]), { kind: 'inclusive' });
//   const { keys } = await wg.sort(new Float32Array([2, -1, 0.5]));
//   const plan = wg.createScanPlan({ type: 'f32', op: 'max', capacity: n });
//   plan.encode(encoder, { input, output, n });          // records into your encoder
//   await wg.errors();                                   // WebGPU errors the calls raised
//   plan.destroy(); wg.destroy();
//
// Errors: every failure throws WgscanError with the native library's numbered code
// (err.code), its name (err.name, e.g. 'WGS_ERROR_BUFFER_TOO_SMALL') and message.
//
// Adding a primitive: its three exports in wgscan_web.c (plan create, destroy, encode),
// one entry in PRIMITIVES below (the create call's arguments from the options, the
// encode call's arguments from the args, the counts from the GPU it takes), a
// create<Name>Plan method and its PREPARE name, a host helper if it has one, and its
// lines in wgscan.d.ts.

// wgscan.h's result list: numbers are never reused.
const RESULT_NAMES = [
  'WGS_OK', 'WGS_ERROR_INVALID_ARGUMENT', 'WGS_ERROR_UNSUPPORTED_TYPE', 'WGS_ERROR_UNSUPPORTED_OPERATOR',
  'WGS_ERROR_FEATURE_MISSING', 'WGS_ERROR_CAPACITY_EXCEEDED', 'WGS_ERROR_BUFFER_TOO_SMALL',
  'WGS_ERROR_MISALIGNED_OFFSET', 'WGS_ERROR_BUFFER_USAGE', 'WGS_ERROR_ALIASING', 'WGS_ERROR_TOO_LARGE',
  'WGS_ERROR_OUT_OF_HOST_MEMORY', 'WGS_ERROR_RUNTIME_NOT_FOUND', 'WGS_ERROR_NO_ADAPTER',
  'WGS_ERROR_DEVICE_REQUEST_FAILED', 'WGS_ERROR_GPU_VALIDATION', 'WGS_ERROR_GPU_OUT_OF_MEMORY',
  'WGS_ERROR_GPU_INTERNAL', 'WGS_ERROR_DEVICE_LOST', 'WGS_ERROR_MAP_FAILED', 'WGS_ERROR_TIMEOUT',
  'WGS_ERROR_WRONG_CONTEXT', 'WGS_ERROR_SEGMENTS_UNORDERED', 'WGS_ERROR_SEGMENT_OUT_OF_RANGE',
  'WGS_ERROR_OPERATOR_TYPE', 'WGS_ERROR_OPERATOR_TOO_LARGE', 'WGS_ERROR_OPERATOR_IDENTITY',
  'WGS_ERROR_OPERATOR_RESERVED_NAME', 'WGS_ERROR_OPERATOR_COMPILE',
];
/** The numbered codes by short name: ErrorCode.BUFFER_TOO_SMALL === 6. */
export const ErrorCode = Object.freeze(Object.fromEntries(
  RESULT_NAMES.map((name, code) => [name.replace(/^WGS_(ERROR_)?/, ''), code])));

/** The index an arg-min/arg-max of no elements returns; the offset of a failed allocation. */
export const NO_INDEX = 0xFFFFFFFF;
export const ALLOC_FAILED = 0xFFFFFFFF;

export class WgscanError extends Error {
  constructor(code, message) {
    const name = RESULT_NAMES[code] ?? 'WGS_UNKNOWN_RESULT';
    // The library's messages may begin with the name: it is err.name already.
    super((message ?? '').replace(`${name}: `, '') || name);
    this.code = code;
    this.name = name;
  }
}

const fail = (code, message) => { throw new WgscanError(code, message); };
const invalid = (message) => fail(ErrorCode.INVALID_ARGUMENT, message);

// ---- enumerations: the numbers of wgscan.h ------------------------------------------
const TYPES = { u32: 1, i32: 2, f32: 3, f16: 4 };
const OPS = { add: 1, min: 2, max: 3, and: 4, or: 5, xor: 6, argmin: 7, argmax: 8 };
const SCAN_KINDS = { exclusive: 1, inclusive: 2 };
const SCAN_ALGORITHMS = { auto: 0, multilevel: 1, 'single-pass': 2 };
const SCAN_ALGORITHM_NAMES = ['auto', 'multilevel', 'single-pass'];
const REDUCE_ALGORITHMS = { auto: 0, tree: 1, atomic: 2, 'atomic-per-element': 3 };
const FLOAT_SUMS = { auto: 0, cas: 1, 'fixed-point': 2 };
const PREDICATES = { nonzero: 1, equal: 2, 'not-equal': 3, less: 4, greater: 5, 'in-range': 6 };
const SELECT_MODES = { flagged: 1, if: 2, unique: 3, 'run-length': 4 };
const PAYLOADS = { none: 0, buffer: 1, index: 2 };
const SELECT_ALGORITHMS = { auto: 0, 'single-pass': 1, 'three-pass': 2 };
const ALLOC_ALGORITHMS = { auto: 0, scan: 1, atomic: 2 };
const SEGMENT_FORMS = { offsets: 1, 'begin-end': 2 };
const SEGMENT_HEADS = { keys: 1, flags: 2 };
const KEY_TYPES = { u32: 1, i32: 2 };
// Sort keys: the 64-bit types are the sort's alone (f16 is passed on, for the library's
// own UNSUPPORTED_TYPE).
const SORT_TYPES = { u32: 1, i32: 2, f32: 3, f16: 4, u64: 5, i64: 6 };
const SORT_ORDERS = { ascending: 0, descending: 1 };
const SORT_ALGORITHMS = { auto: 0, onesweep: 1, 'reduce-scan': 2 };
const SORT_KEY_SIZE = { u32: 4, i32: 4, f32: 4, u64: 8, i64: 8 };
const TOPK_SELECTS = { largest: 0, smallest: 1 };
const TOPK_OUTPUTS = { sorted: 0, 'input-order': 1 };
const SEGMENTED_SORT_PATHS = { auto: 0, small: 1, large: 2 };
const ELEMENT_SIZE = { u32: 4, i32: 4, f32: 4, f16: 2 };

// The options over the defaults; an option given as undefined keeps its default.
// A user's operator's identity as bytes (an ArrayBuffer or a typed array): its length is
// the element's size, which the library checks against the element's type.
function operatorIdentity(op) {
  const id = op?.identity;
  if (id instanceof ArrayBuffer) return new Uint8Array(id);
  if (ArrayBuffer.isView(id)) return new Uint8Array(id.buffer, id.byteOffset, id.byteLength);
  return invalid("operator.identity must be an ArrayBuffer or a typed array holding the element's bytes");
}

// Options of a plan with a user's operator: no type or op beside it (the operator says
// both); the plan's type reads 'operator'.
function withOperator(o, options) {
  if (options.operator === undefined) return o;
  if (options.type !== undefined || options.op !== undefined) invalid('operator takes no type or op (it says both)');
  return { ...o, type: 'operator', op: 'operator' };
}

function withDefaults(defaults, options) {
  const o = { ...defaults };
  for (const [k, v] of Object.entries(options ?? {})) if (v !== undefined) o[k] = v;
  return o;
}

function lookup(table, key, what) {
  if (!Object.hasOwn(table, key)) invalid(`unknown ${what} '${key}' (${Object.keys(table).join(', ')})`);
  return table[key];
}

// A count, size or offset: a non-negative integer JavaScript holds exactly.
function count(v, what) {
  if (!Number.isSafeInteger(v) || v < 0) invalid(`${what} must be a non-negative integer, not ${v}`);
  return v;
}

function number(v, what) {
  if (typeof v !== 'number') invalid(`${what} must be a number, not ${typeof v}`);
  return v;
}

function predicateValues(p, what = 'predicate') {
  if (p == null) return [1, 0, 0];
  if (typeof p !== 'object') invalid(`${what} must be an object { kind, a, b }`);
  return [lookup(PREDICATES, p.kind ?? 'nonzero', 'predicate kind'), number(p.a ?? 0, `${what}.a`),
    number(p.b ?? 0, `${what}.b`)];
}

function typeOfArray(a) {
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Uint16Array) return 'f16'; // raw IEEE half bits
  if (isFloat16Array(a)) return 'f16';
  return null;
}

// Float16Array where the engine has it (not Node 20); its elements are f16 already.
const isFloat16Array = (a) => typeof globalThis.Float16Array === 'function' && a instanceof globalThis.Float16Array;

// The key type of a sort's typed array: the 32-bit ones as elsewhere, and 64-bit keys
// as BigUint64Array (u64) and BigInt64Array (i64).
function sortTypeOfArray(a) {
  if (a instanceof BigUint64Array) return 'u64';
  if (a instanceof BigInt64Array) return 'i64';
  return a instanceof Uint16Array || isFloat16Array(a) ? null : typeOfArray(a);
}

// The values that move with a sort's keys: a typed array of 4- or 8-byte elements.
function isSortValues(a) {
  return ArrayBuffer.isView(a) && !(a instanceof DataView) && (a.BYTES_PER_ELEMENT === 4 || a.BYTES_PER_ELEMENT === 8);
}

// The key type of the sorts' host helpers (sort, segmentedSort, topk): options.type, or
// the array's; its size must be the array's element size.
function sortKeyType(keys, type) {
  type ??= sortTypeOfArray(keys);
  if (!type || !ArrayBuffer.isView(keys) || keys instanceof DataView) {
    invalid('keys must be a Uint32Array, Int32Array, Float32Array, BigUint64Array or BigInt64Array');
  }
  if (SORT_KEY_SIZE[type] !== undefined && SORT_KEY_SIZE[type] !== keys.BYTES_PER_ELEMENT) {
    invalid(`keys hold ${keys.BYTES_PER_ELEMENT}-byte elements, key type '${type}' needs ${SORT_KEY_SIZE[type]}`);
  }
  return type;
}

// The values option of sort and segmentedSort: 'index', or n values of 4 or 8 bytes.
// Returns the plan's payload and valueBytes and the values to upload (or none).
function sortPayload(values, n) {
  if (values == null) return { payload: 'none', valueBytes: 0, input: null };
  if (values === 'index') return { payload: 'index', valueBytes: 0, input: null };
  if (!isSortValues(values) || values.length < n) invalid('values must be \'index\' or a typed array of n 4- or 8-byte values');
  return { payload: 'buffer', valueBytes: values.BYTES_PER_ELEMENT, input: values.subarray(0, n) };
}

const powerOfTwo = (x) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

// The segments of a segmented host helper: offsets (nSegments + 1 CSR offsets) or begin
// and end (nSegments each), Uint32Arrays, put into `uploads` under the encode's names.
// Returns the plan's segments form, nSegments and a segmentCapacity (a power of two, so
// that growing counts make few plans).
function hostSegments({ offsets, begin, end }, uploads) {
  const u32s = (a, what) => (a instanceof Uint32Array ? a : invalid(`${what} must be a Uint32Array`));
  let nSegments, segments;
  if (offsets != null) {
    if (begin != null || end != null) invalid('give offsets, or begin and end, not both');
    if (u32s(offsets, 'offsets').length < 1) invalid('offsets must hold nSegments + 1 offsets');
    nSegments = offsets.length - 1;
    segments = 'offsets';
    uploads.offsets = offsets;
  } else {
    if (u32s(begin, 'begin').length !== u32s(end, 'end').length) invalid('begin and end must be of one length');
    nSegments = begin.length;
    segments = 'begin-end';
    uploads.beginOffsets = begin;
    uploads.endOffsets = end;
  }
  return { segments, nSegments, segmentCapacity: powerOfTwo(nSegments) };
}

// A segmented host call's status word (downloaded): 0, or the code the GPU's check of
// the segments left, thrown.
function checkSegmentStatus(bytes) {
  const status = new Uint32Array(bytes)[0];
  if (status) fail(status, `the GPU's check of the segments: ${RESULT_NAMES[status] ?? status}`);
}

// The result array of `type`; f16 results come as the input came (Float16Array, or
// Uint16Array of raw bits).
function arrayFor(type, buffer, n, like = null) {
  if (type === 'f16' && isFloat16Array(like)) return new globalThis.Float16Array(buffer, 0, n);
  switch (type) {
    case 'u32': return new Uint32Array(buffer, 0, n);
    case 'i32': return new Int32Array(buffer, 0, n);
    case 'f32': return new Float32Array(buffer, 0, n);
    default: return new Uint16Array(buffer, 0, n);
  }
}

function inputType(input, options, what = 'input') {
  const type = options.type ?? typeOfArray(input);
  if (!type || !ArrayBuffer.isView(input)) {
    invalid(`${what} must be a Uint32Array, Int32Array, Float32Array, Float16Array or Uint16Array (f16 bits)`);
  }
  if (typeOfArray(input) !== type && !(ELEMENT_SIZE[type] === input.BYTES_PER_ELEMENT)) {
    invalid(`${what} holds ${input.BYTES_PER_ELEMENT}-byte elements, type '${type}' needs ${ELEMENT_SIZE[type] ?? '?'}`);
  }
  return type;
}

// A host helper's values: a typed array of a built-in type, or with options.operator any
// typed array of whole elements of the operator; n elements of `size` bytes, and `wrap`
// makes `count` results of a buffer an array of the input's kind.
function hostValues(input, options) {
  if (options.operator === undefined) {
    const type = inputType(input, options);
    return { type, n: input.length, size: ELEMENT_SIZE[type], custom: false };
  }
  const { n, size } = operatorInput(input, options.operator);
  return { type: undefined, n, size, custom: true,
    wrap: (buffer, count) => new input.constructor(buffer, 0, (count * size) / input.BYTES_PER_ELEMENT) };
}

// A host helper's input with a user's operator: n elements of the identity's size.
function operatorInput(input, op) {
  const size = operatorIdentity(op).length;
  if (!ArrayBuffer.isView(input) || input instanceof DataView || !size || input.byteLength % size ||
      size % input.BYTES_PER_ELEMENT) {
    invalid(`input must be a typed array of whole ${size}-byte elements of the operator`);
  }
  return { n: input.byteLength / size, size };
}

// One element of `type` as the 32-bit pattern the library takes (f16: its 16 bits, as
// the Uint16Arrays of f16 data hold them).
function elementBits(type, v, what) {
  const integer = (lo, hi) => (Number.isInteger(v) && v >= lo && v <= hi) || invalid(`${what} must be a ${type} value, not ${v}`);
  if (type === 'u32') return integer(0, 0xFFFFFFFF) && v >>> 0;
  if (type === 'i32') return integer(-0x80000000, 0x7FFFFFFF) && v >>> 0;
  if (type === 'f16') return integer(0, 0xFFFF) && v;
  return new Uint32Array(new Float32Array([number(v, what)]).buffer)[0];
}

// ---- the primitives ----------------------------------------------------------------
// Each encode export takes (plan, encoder, ...fields, querySet, beginIndex, endIndex);
// a field is [kind, name]: 'buffer' (a GPUBuffer, or none), 'offset' (bytes, default 0),
// 'count' (required), 'u32' (required), 'predicate' (optional: has, kind, a, b), 'value'
// (optional: has, the bits of one element of the plan's type). counts: which counts from
// the GPU an encode takes (nBuffer, and nSegmentsBuffer for 'segments'): 'n' unless
// said.
const PRIMITIVES = {
  scan: {
    encode: 'wgs_web_scan_encode', destroy: 'wgs_web_scan_plan_destroy',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['buffer', 'output'], ['offset', 'outputOffset'],
      ['count', 'n']],
  },
  reduce: {
    encode: 'wgs_web_reduce_encode', destroy: 'wgs_web_reduce_plan_destroy',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['count', 'n'], ['buffer', 'output'],
      ['offset', 'outputOffset'], ['predicate', 'predicate']],
  },
  select: {
    encode: 'wgs_web_select_encode', destroy: 'wgs_web_select_plan_destroy',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['buffer', 'flags'], ['offset', 'flagsOffset'],
      ['buffer', 'payloadIn'], ['offset', 'payloadInOffset'], ['buffer', 'output'], ['offset', 'outputOffset'],
      ['buffer', 'payloadOut'], ['offset', 'payloadOutOffset'], ['buffer', 'count'], ['offset', 'countOffset'],
      ['count', 'n'], ['predicate', 'predicate']],
  },
  histogram: {
    encode: 'wgs_web_histogram_encode', destroy: 'wgs_web_histogram_plan_destroy',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['count', 'n'], ['buffer', 'output'],
      ['offset', 'outputOffset']],
  },
  sort: {
    encode: 'wgs_web_sort_encode', destroy: 'wgs_web_sort_plan_destroy',
    fields: [['buffer', 'keysIn'], ['offset', 'keysInOffset'], ['buffer', 'keysOut'], ['offset', 'keysOutOffset'],
      ['buffer', 'valuesIn'], ['offset', 'valuesInOffset'], ['buffer', 'valuesOut'], ['offset', 'valuesOutOffset'],
      ['count', 'n']],
  },
  topk: {
    encode: 'wgs_web_topk_encode', destroy: 'wgs_web_topk_plan_destroy', counts: 'none',
    fields: [['buffer', 'keysIn'], ['offset', 'keysInOffset'], ['buffer', 'keysOut'], ['offset', 'keysOutOffset'],
      ['buffer', 'valuesIn'], ['offset', 'valuesInOffset'], ['buffer', 'valuesOut'], ['offset', 'valuesOutOffset'],
      ['count', 'n'], ['count', 'rows'], ['count', 'k']],
  },
  segmentedSort: {
    encode: 'wgs_web_segmented_sort_encode', destroy: 'wgs_web_segmented_sort_plan_destroy', counts: 'segments',
    fields: [['buffer', 'keysIn'], ['offset', 'keysInOffset'], ['buffer', 'keysOut'], ['offset', 'keysOutOffset'],
      ['buffer', 'valuesIn'], ['offset', 'valuesInOffset'], ['buffer', 'valuesOut'], ['offset', 'valuesOutOffset'],
      ['count', 'n'], ['buffer', 'offsets'], ['offset', 'offsetsOffset'], ['buffer', 'beginOffsets'],
      ['offset', 'beginOffsetsOffset'], ['buffer', 'endOffsets'], ['offset', 'endOffsetsOffset'],
      ['count', 'nSegments'], ['buffer', 'status'], ['offset', 'statusOffset']],
  },
  segmentedReduce: {
    encode: 'wgs_web_segmented_reduce_encode', destroy: 'wgs_web_segmented_reduce_plan_destroy', counts: 'segments',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['count', 'n'], ['buffer', 'offsets'],
      ['offset', 'offsetsOffset'], ['buffer', 'beginOffsets'], ['offset', 'beginOffsetsOffset'],
      ['buffer', 'endOffsets'], ['offset', 'endOffsetsOffset'], ['count', 'nSegments'], ['buffer', 'output'],
      ['offset', 'outputOffset'], ['buffer', 'status'], ['offset', 'statusOffset']],
  },
  scanByKey: {
    encode: 'wgs_web_scan_by_key_encode', destroy: 'wgs_web_scan_by_key_plan_destroy',
    fields: [['buffer', 'keys'], ['offset', 'keysOffset'], ['buffer', 'flags'], ['offset', 'flagsOffset'],
      ['buffer', 'input'], ['offset', 'inputOffset'], ['buffer', 'output'], ['offset', 'outputOffset'],
      ['count', 'n'], ['buffer', 'initBuffer'], ['offset', 'initOffset'], ['value', 'initValue']],
  },
  segmentedScan: {
    encode: 'wgs_web_segmented_scan_encode', destroy: 'wgs_web_segmented_scan_plan_destroy', counts: 'segments',
    fields: [['buffer', 'input'], ['offset', 'inputOffset'], ['buffer', 'output'], ['offset', 'outputOffset'],
      ['count', 'n'], ['buffer', 'offsets'], ['offset', 'offsetsOffset'], ['buffer', 'beginOffsets'],
      ['offset', 'beginOffsetsOffset'], ['buffer', 'endOffsets'], ['offset', 'endOffsetsOffset'],
      ['count', 'nSegments'], ['buffer', 'status'], ['offset', 'statusOffset']],
  },
  reduceByKey: {
    encode: 'wgs_web_reduce_by_key_encode', destroy: 'wgs_web_reduce_by_key_plan_destroy',
    fields: [['buffer', 'keys'], ['offset', 'keysOffset'], ['buffer', 'input'], ['offset', 'inputOffset'],
      ['count', 'n'], ['buffer', 'uniqueKeys'], ['offset', 'uniqueKeysOffset'], ['buffer', 'aggregates'],
      ['offset', 'aggregatesOffset'], ['buffer', 'numRuns'], ['offset', 'numRunsOffset']],
  },
  alloc: {
    encode: 'wgs_web_alloc_encode', destroy: 'wgs_web_alloc_plan_destroy',
    fields: [['buffer', 'sizes'], ['offset', 'sizesOffset'], ['buffer', 'offsets'], ['offset', 'offsetsOffset'],
      ['buffer', 'state'], ['offset', 'stateOffset'], ['count', 'n'], ['u32', 'arenaSize']],
  },
};

// What plans reach of their instance (module-private).
const internals = new WeakMap();
const owners = new WeakMap(); // plan -> its Wgscan

/** A compiled pass sequence for one primitive; see the create<Name>Plan methods. */
export class Plan {
  #wg; #ptr; #primitive;
  constructor(wg, primitive, ptr, options) {
    this.#wg = wg;
    owners.set(this, wg);
    this.#primitive = primitive;
    this.#ptr = ptr;
    Object.assign(this, options);
  }

  get destroyed() { return !this.#ptr; }
  get _ptr() { return this.#ptr || invalid('the plan was destroyed'); }

  // Records the plan's passes into `encoder` (a GPUCommandEncoder) on the caller's
  // GPUBuffers (STORAGE usage; offsets in bytes). Throws WgscanError for bad arguments;
  // WebGPU errors of the recorded passes arrive through wg.errors().
  encode(encoder, args = {}) {
    const spec = PRIMITIVES[this.#primitive];
    const ptr = this._ptr;
    if (!encoder || typeof encoder.beginComputePass !== 'function') invalid('encoder must be a GPUCommandEncoder');
    const values = [encoder];
    for (const [kind, name] of spec.fields) {
      const v = args[name];
      switch (kind) {
        case 'buffer':
          if (v != null && typeof v.getMappedRange !== 'function') invalid(`${name} must be a GPUBuffer`);
          values.push(v ?? null);
          break;
        case 'offset': values.push(count(v ?? 0, name)); break;
        case 'count': values.push(count(v, name)); break;
        case 'u32':
          if (!(count(v, name) <= 0xFFFFFFFF)) invalid(`${name} must fit 32 bits`);
          values.push(v);
          break;
        case 'value':
          if (v != null && this.operator !== undefined) invalid(`${name} with an operator: give initBuffer (one element) instead`);
          values.push(v == null ? 0 : 1, v == null ? 0 : elementBits(this.type, v, name));
          break;
        default: // predicate
          values.push(v == null ? 0 : 1, ...predicateValues(v, name));
      }
    }
    // Counts on the GPU: nBuffer holds the element count (one u32 at nOffset, read when
    // the passes run) and n is then its bound; the segmented primitives also take
    // nSegmentsBuffer (the segment count, bounded by nSegments); the top-k takes neither.
    const counts = spec.counts ?? 'n';
    if (counts === 'none' && (args.nBuffer != null || args.nSegmentsBuffer != null)) {
      invalid(`the ${this.#primitive} plan takes no counts from the GPU (nBuffer, nSegmentsBuffer)`);
    }
    if (counts !== 'segments' && args.nSegmentsBuffer != null) invalid('nSegmentsBuffer is for the segmented primitives');
    for (const [name, kind] of [['nBuffer', 'buffer'], ['nOffset', 'offset'], ['nSegmentsBuffer', 'buffer'],
      ['nSegmentsOffset', 'offset']]) {
      const v = args[name];
      if (kind === 'offset') values.push(count(v ?? 0, name));
      else if (v != null && typeof v.getMappedRange !== 'function') invalid(`${name} must be a GPUBuffer`);
      else values.push(v ?? null);
    }
    const tw = args.timestampWrites;
    values.push(tw?.querySet ?? null, tw?.beginningOfPassWriteIndex ?? 0, tw?.endOfPassWriteIndex ?? 0);
    internals.get(this.#wg).call(spec.encode, ptr, values);
  }

  // Frees the plan's pipelines and scratch; a second call does nothing.
  destroy() {
    if (!this.#ptr) return;
    internals.get(this.#wg).release(this, PRIMITIVES[this.#primitive].destroy, this.#ptr);
    this.#ptr = 0;
  }
}

export class ScanPlan extends Plan {
  // 'single-pass' or 'multilevel': what an encode of n elements uses.
  algorithmFor(n, inPlace = false) {
    const e = internals.get(owners.get(this)).exports;
    return SCAN_ALGORITHM_NAMES[e.wgs_web_scan_plan_algorithm(this._ptr, count(n, 'n'), inPlace ? 1 : 0)];
  }

  // Elements per tile of an algorithm ('single-pass' or 'multilevel').
  tileSize(algorithm) {
    const e = internals.get(owners.get(this)).exports;
    return e.wgs_web_scan_plan_tile(this._ptr, lookup(SCAN_ALGORITHMS, algorithm, 'algorithm'));
  }
}
export class ReducePlan extends Plan {}
export class SelectPlan extends Plan {}
export class HistogramPlan extends Plan {}
export class SortPlan extends Plan {}
export class TopkPlan extends Plan {}
export class SegmentedSortPlan extends Plan {
  // The longest segment one workgroup sorts; longer ones take the radix sorts (path
  // 'auto', 'large') or are refused through the status (path 'small').
  tileSize() {
    return internals.get(owners.get(this)).exports.wgs_web_segmented_sort_plan_tile(this._ptr);
  }
}
export class SegmentedReducePlan extends Plan {}
export class ScanByKeyPlan extends Plan {}
export class SegmentedScanPlan extends Plan {}
export class ReduceByKeyPlan extends Plan {}
export class AllocPlan extends Plan {}

const HOST_PLANS = 16;
// The factories that take a user's operator.
const OPERATOR_PRIMITIVES = new Set(['scan', 'reduce', 'segmentedReduce', 'scanByKey', 'segmentedScan', 'reduceByKey']);
const PENDING = Symbol('pipeline being compiled');
const PREPARE = {
  scan: 'createScanPlan', reduce: 'createReducePlan', count: 'createCountPlan', select: 'createSelectPlan',
  histogram: 'createHistogramPlan', sort: 'createSortPlan', segmentedReduce: 'createSegmentedReducePlan',
  scanByKey: 'createScanByKeyPlan', segmentedScan: 'createSegmentedScanPlan', reduceByKey: 'createReduceByKeyPlan',
  alloc: 'createAllocPlan', topk: 'createTopkPlan', segmentedSort: 'createSegmentedSortPlan',
};

// The wasm's bytes from a URL. Node's fetch refuses file: URLs, which is where the
// package's own wgscan.wasm lies under Node: read those from the file system. The
// module name is built at run time so that bundlers for the browser leave it alone.
async function loadBytes(url) {
  if (url.startsWith('file:') && globalThis.process?.versions?.node) {
    const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ ['node', 'fs/promises'].join(':'));
    try {
      return await fs.readFile(new URL(url));
    } catch (e) {
      throw new Error(`cannot load ${url}: ${e.message}`);
    }
  }
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error(`cannot load ${url}: ${e.message} (pass Wgscan.create(device, { wasm }) its URL or bytes)`);
  }
  if (!r.ok) throw new Error(`cannot load ${url}: HTTP ${r.status} (pass Wgscan.create(device, { wasm }) its URL or bytes)`);
  return r.arrayBuffer();
}
const modules = new Map(); // compiled wgscan.wasm by URL: instances share the compile
// Each pipeline's bind group layout, asked once: getBindGroupLayout returns a new object
// each call, and every dispatch of every encode creates a bind group.
const layouts = new WeakMap();
// The error scopes the library's calls open, and the code each one's error reports.
const SCOPES = ['internal', 'out-of-memory', 'validation'];
const SCOPE_CODES = { internal: ErrorCode.GPU_INTERNAL, 'out-of-memory': ErrorCode.GPU_OUT_OF_MEMORY, validation: ErrorCode.GPU_VALIDATION };
// Each buffer's identity for the library's bind group cache (wgs__gpu_buffer_id): a
// serial number, never reused, where handles are per call and reused.
const objectIds = new WeakMap();
let objectSerial = 0;

export class Wgscan {
  // Loads wgscan.wasm and opens the library on `device`. Options: wasm (its URL, its
  // bytes, or a WebAssembly.Module; default: wgscan.wasm beside this module),
  // adapterInfo (a GPUAdapterInfo, where device.adapterInfo is missing).
  static async create(device, options = {}) {
    if (!device || typeof device.createBuffer !== 'function') invalid('device must be a GPUDevice');
    let module = options.wasm;
    if (!(module instanceof WebAssembly.Module)) {
      if (module instanceof ArrayBuffer || ArrayBuffer.isView(module)) {
        module = await WebAssembly.compile(module);
      } else {
        const url = String(module ?? new URL('./wgscan.wasm', import.meta.url));
        if (!modules.has(url)) modules.set(url, loadBytes(url).then((b) => WebAssembly.compile(b)));
        try {
          module = await modules.get(url);
        } catch (e) {
          modules.delete(url);
          throw e;
        }
      }
    }
    const wg = new Wgscan(device, options.adapterInfo);
    await wg.#instantiate(module);
    wg.#check(wg.#exports.wgs_web_open());
    return wg;
  }

  #device;
  #exports = null;
  #objects = [null]; // handle -> WebGPU object; 0 is "none"
  #free = [];
  #owned = new Set(); // handles of buffers the library created (see #drop)
  #destroying = false; // a plan's or the instance's destroy() is running
  #callScope = 0;      // within #call: 1, and 2 once the library asked for its errors
  #open = [];          // the error scopes open (filters, in the order pushed)
  #pending = [];      // error-scope promises not yet awaited
  #plans = new Set(); // live plans, destroyed with the instance
  #compiling = null;  // while prepare() creates plans: its pipelines' promises
  #pipelineCounts = { created: 0, prepared: 0 };
  #lost = false;
  info;

  constructor(device, adapterInfo) {
    this.#device = device;
    device.lost.then(() => { this.#lost = true; });
    const ai = adapterInfo ?? device.adapterInfo ?? {};
    const l = device.limits;
    const f = device.features;
    const cpu = ai.isFallbackAdapter || /swiftshader|llvmpipe|lavapipe/i.test(`${ai.architecture} ${ai.description} ${ai.device}`);
    const name = ai.description || [ai.vendor, ai.architecture, ai.device].filter(Boolean).join(' ') || 'unknown adapter';
    this.info = Object.freeze({
      name, vendor: ai.vendor ?? '', architecture: ai.architecture ?? '', device: ai.device ?? '',
      description: ai.description ?? '', backend: 'webgpu', adapterType: cpu ? 'cpu' : 'gpu',
      subgroupMinSize: ai.subgroupMinSize ?? 0, subgroupMaxSize: ai.subgroupMaxSize ?? 0,
      subgroups: f.has('subgroups'), timestampQuery: f.has('timestamp-query'), shaderF16: f.has('shader-f16'),
      maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    });
    const self = this;
    internals.set(this, {
      get exports() { return self.#live(); },
      call: (fn, ptr, values) => self.#call(fn, ptr, values),
      release: (plan, fn, ptr) => {
        self.#plans.delete(plan);
        if (self.#exports) self.#destroyingDo(() => self.#exports[fn](ptr));
      },
    });
  }

  get device() { return this.#device; }
  get destroyed() { return !this.#exports; }

  // The element types this device runs: f16 only with shader-f16.
  get types() { return ['u32', 'i32', 'f32'].concat(this.info.shaderF16 ? ['f16'] : []); }

  // ---- handle table --------------------------------------------------------------
  #put(obj) {
    const h = this.#free.length ? this.#free.pop() : this.#objects.length;
    this.#objects[h] = obj;
    return h;
  }
  #get(h) { return this.#objects[h]; }
  #pipeline(h) {
    const p = this.#objects[h];
    if (p === PENDING) invalid('a plan was used before the prepare() that compiles its pipelines resolved');
    return p;
  }
  // Forgets handle h. A buffer the library created is destroyed only while a plan or the
  // instance is being destroyed (`#destroying`): the library also releases buffers in
  // the middle of encodes (a full parameter or count ring replaced by a fresh one) that
  // the caller's encoder still uses, and which webgpu.h's release keeps alive until
  // that work has run. Here the encoder's reference does the same, and the garbage
  // collector frees them after.
  #drop(h) {
    if (!h) return;
    if (this.#owned.has(h)) {
      if (this.#destroying) this.#objects[h].destroy();
      this.#owned.delete(h);
    }
    this.#objects[h] = undefined;
    this.#free.push(h);
  }

  #destroyingDo(f) {
    const was = this.#destroying;
    this.#destroying = true;
    try {
      f();
    } finally {
      this.#destroying = was;
    }
  }

  #live() { return this.#exports ?? invalid('the Wgscan instance was destroyed'); }

  // A string in wasm memory: `len` bytes, or up to its NUL terminator.
  #string(ptr, len) {
    const buf = this.#exports.memory.buffer;
    const mem = new Uint8Array(buf, ptr, len ?? buf.byteLength - ptr);
    const end = len ?? mem.indexOf(0);
    return new TextDecoder().decode(mem.subarray(0, end < 0 ? mem.length : end));
  }

  #check(r) {
    if (r === 0) return;
    throw new WgscanError(r, this.#string(this.#exports.wgs_web_last_error()));
  }

  // Runs an encode export: WebGPU objects among `values` (null: none) become
  // temporary handles, one per object, so that the C side sees aliasing.
  #call(fn, ptr, values) {
    const e = this.#live();
    const handles = new Map();
    const args = values.map((v) => {
      if (typeof v !== 'object') return v;
      if (v === null) return 0;
      if (!handles.has(v)) handles.set(v, this.#put(v));
      return handles.get(v);
    });
    this.#callScope = 1;
    try {
      this.#check(e[fn](ptr, ...args));
    } finally {
      this.#popScopes();
      this.#callScope = 0;
      for (const h of handles.values()) this.#drop(h);
    }
  }

  #pushScopes(filters) {
    for (const f of filters) {
      if (this.#open.includes(f)) continue;
      this.#device.pushErrorScope(f);
      this.#open.push(f);
    }
  }

  #popThree() {
    const dev = this.#device;
    for (const f of [...SCOPES].reverse()) {
      const code = SCOPE_CODES[f];
      this.#pending.push(dev.popErrorScope().then((e) => (e ? { code, message: e.message } : null)));
    }
  }

  #popScopes() {
    const dev = this.#device;
    while (this.#open.length) {
      const code = SCOPE_CODES[this.#open.pop()];
      this.#pending.push(dev.popErrorScope().then((e) => (e ? { code, message: e.message } : null)));
    }
  }

  // Within an encode (#call), the scopes the library asked for open only before the
  // WebGPU calls that can raise what they catch: a pass (validation: an ended
  // encoder) takes one, a creation or a queue write all three. An encode whose bind
  // groups and records are all cached (bindings.c) so pays one scope, not three: each
  // push and pop is a call into Dawn for Node (3 + 3 took 37-50 us there).
  #scopesFor(filters) {
    if (this.#callScope === 2) this.#pushScopes(filters);
  }

  // A user's operator (wgscan.h, "Your own operator") for the next create: its strings
  // and identity copied into the module's memory, named by wgs_web_operator_set. Returns
  // what frees them (the create copies what it keeps).
  #setOperator(op) {
    const e = this.#live();
    if (typeof op !== 'object' || op === null) invalid('operator must be { source, element, combine, identity, commutative }');
    for (const k of ['source', 'element', 'combine']) if (typeof op[k] !== 'string') invalid(`operator.${k} must be a string`);
    const identity = operatorIdentity(op);
    const ptrs = [];
    const put = (bytes, nul) => {
      const p = e.wgs_web_alloc(bytes.length + nul);
      ptrs.push(p);
      const mem = new Uint8Array(e.memory.buffer); // (after the allocation, which may grow the memory)
      mem.set(bytes, p);
      if (nul) mem[p + bytes.length] = 0;
      return p;
    };
    try {
      const text = new TextEncoder();
      const [source, element, combine] = [op.source, op.element, op.combine].map((t) => put(text.encode(t), 1));
      e.wgs_web_operator_set(source, element, combine, put(identity, 0), identity.length, op.commutative ? 1 : 0);
    } catch (err) {
      for (const p of ptrs) e.wgs_web_free(p);
      throw err;
    }
    return () => { for (const p of ptrs) e.wgs_web_free(p); };
  }

  #plan(primitive, Cls, create, argsOf, options) {
    const e = this.#live();
    const args = argsOf();
    const custom = options.operator !== undefined;
    if (custom && !OPERATOR_PRIMITIVES.has(primitive)) invalid(`operator: the ${primitive} plan takes none`);
    const release = custom ? this.#setOperator(options.operator) : null;
    try {
      this.#check(e[create](...args));
    } finally {
      release?.();
    }
    const plan = new Cls(this, primitive, e.wgs_web_plan_take(), options);
    this.#plans.add(plan);
    return plan;
  }

  async #instantiate(module) {
    const dev = this.#device;
    const self = this;
    const caps = [
      () => dev.limits.maxBufferSize, () => dev.limits.maxStorageBufferBindingSize,
      () => dev.limits.maxComputeWorkgroupsPerDimension, () => dev.limits.maxComputeWorkgroupStorageSize,
      () => dev.limits.maxComputeInvocationsPerWorkgroup, () => dev.limits.maxComputeWorkgroupSizeX,
      () => dev.limits.minStorageBufferOffsetAlignment, () => dev.limits.minUniformBufferOffsetAlignment,
      () => dev.limits.maxStorageBuffersPerShaderStage,
      () => (this.info.subgroups ? 1 : 0), () => (this.info.timestampQuery ? 1 : 0), () => (this.info.shaderF16 ? 1 : 0),
      () => this.info.subgroupMinSize, () => this.info.subgroupMaxSize, () => 0, () => 0,
    ];
    const strings = ['vendor', 'architecture', 'device', 'description', 'backend', 'adapterType'];
    const wgpu = {
      deviceLost: () => (self.#lost ? 1 : 0),
      capsNumber: (i) => caps[i](),
      capsString: (i, dst, cap) => {
        const bytes = new TextEncoder().encode(self.info[strings[i]] ?? '').subarray(0, cap - 1);
        const mem = new Uint8Array(self.#exports.memory.buffer);
        mem.set(bytes, dst);
        mem[dst + bytes.length] = 0;
        return bytes.length;
      },
      // Here a scope's errors are reported by errors(), never by the C call that pops
      // it, so within an encode (#call) the library's scopes, one per step of a
      // sort, are one set: opened as needed (#scopesFor) after the first push, closed
      // when the call returns. Outside a call each push and pop is three scopes.
      pushScope: () => {
        if (self.#callScope === 0) for (const f of SCOPES) dev.pushErrorScope(f);
        else self.#callScope = 2;
      },
      popScope: () => {
        if (self.#callScope === 0) self.#popThree();
      },
      bufferCreate: (size, usage) => {
        self.#scopesFor(SCOPES);
        const h = self.#put(dev.createBuffer({ size, usage, label: 'wgscan' }));
        self.#owned.add(h);
        return h;
      },
      release: (h) => self.#drop(h),
      bufferSize: (h) => self.#get(h).size,
      bufferUsage: (h) => self.#get(h).usage,
      objectId: (h) => {
        const o = self.#get(h);
        let id = objectIds.get(o);
        if (id === undefined) objectIds.set(o, (id = ++objectSerial));
        return id;
      },
      queueWrite: (h, offset, ptr, size) => {
        self.#scopesFor(SCOPES);
        dev.queue.writeBuffer(self.#get(h), offset, self.#exports.memory.buffer, ptr, size);
      },
      pipelineCreate: (wgsl, wgslLen, entry, entryLen) => {
        self.#scopesFor(SCOPES);
        const module = dev.createShaderModule({ code: self.#string(wgsl, wgslLen) });
        const desc = { layout: 'auto', compute: { module, entryPoint: self.#string(entry, entryLen) } };
        if (!self.#compiling) {
          self.#pipelineCounts.created++;
          return self.#put(dev.createComputePipeline(desc));
        }
        // The library keeps only the handle until an encode binds it, so the pipeline
        // may arrive later: prepare() resolves once every slot is filled.
        const h = self.#put(PENDING);
        self.#pipelineCounts.prepared++;
        self.#compiling.push(dev.createComputePipelineAsync(desc).then((pipe) => { self.#objects[h] = pipe; }, (e) => {
          // An invalid pipeline in the slot: using it fails validation, reported as ever.
          self.#objects[h] = dev.createComputePipeline(desc);
          throw e;
        }));
        return h;
      },
      bindGroupCreate: (pipeline, idsPtr, rangesPtr, n) => {
        self.#scopesFor(SCOPES);
        const ids = new Uint32Array(self.#exports.memory.buffer, idsPtr, 2 * n);
        const ranges = new Float64Array(self.#exports.memory.buffer, rangesPtr, 2 * n);
        const entries = [];
        for (let i = 0; i < n; i++) {
          entries.push({ binding: ids[2 * i], resource: { buffer: self.#get(ids[2 * i + 1]), offset: ranges[2 * i], size: ranges[2 * i + 1] } });
        }
        const pipe = self.#pipeline(pipeline);
        let layout = layouts.get(pipe);
        if (!layout) layouts.set(pipe, (layout = pipe.getBindGroupLayout(0)));
        return self.#put(dev.createBindGroup({ layout, entries }));
      },
      passBegin: (encoder, querySet, begin, end) => {
        self.#scopesFor(['validation']);
        const desc = { label: 'wgscan' };
        if (querySet) {
          // Multi-pass primitives time the first pass's begin and the last pass's end:
          // 0xFFFFFFFF (WGPU_QUERY_SET_INDEX_UNDEFINED; -1 as a wasm i32) means none.
          const tw = { querySet: self.#get(querySet) };
          if ((begin >>> 0) !== 0xFFFFFFFF) tw.beginningOfPassWriteIndex = begin >>> 0;
          if ((end >>> 0) !== 0xFFFFFFFF) tw.endOfPassWriteIndex = end >>> 0;
          if ('beginningOfPassWriteIndex' in tw || 'endOfPassWriteIndex' in tw) desc.timestampWrites = tw;
        }
        return self.#put(self.#get(encoder).beginComputePass(desc));
      },
      passDispatch: (pass, pipeline, group, x, y) => {
        const p = self.#get(pass);
        p.setPipeline(self.#pipeline(pipeline));
        p.setBindGroup(0, self.#get(group));
        p.dispatchWorkgroups(x, y, 1);
      },
      passDispatchIndirect: (pass, pipeline, group, args, offset) => {
        const p = self.#get(pass);
        p.setPipeline(self.#pipeline(pipeline));
        p.setBindGroup(0, self.#get(group));
        p.dispatchWorkgroupsIndirect(self.#get(args), offset);
      },
      passEnd: (pass) => {
        self.#get(pass).end();
        self.#drop(pass);
      },
    };
    // The C library's few WASI needs: stderr (a rare warning) goes to the console, the
    // environment is empty (no tuning knobs in the browser), nothing else is used.
    const wasi = {};
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.module !== 'wasi_snapshot_preview1') continue;
      if (imp.name === 'environ_sizes_get') {
        wasi[imp.name] = (countPtr, sizePtr) => {
          const m = new DataView(self.#exports.memory.buffer);
          m.setUint32(countPtr, 0, true);
          m.setUint32(sizePtr, 0, true);
          return 0;
        };
        continue;
      }
      if (imp.name === 'proc_exit') {
        wasi[imp.name] = (code) => { throw new Error(`wgscan.wasm exited with ${code}`); };
        continue;
      }
      wasi[imp.name] = imp.name === 'fd_write'
        ? (fd, iovs, iovsLen, nwritten) => {
          const m = new DataView(self.#exports.memory.buffer);
          let n = 0, text = '';
          for (let i = 0; i < iovsLen; i++) {
            const p = m.getUint32(iovs + 8 * i, true), l = m.getUint32(iovs + 8 * i + 4, true);
            text += self.#string(p, l);
            n += l;
          }
          console.warn(text);
          m.setUint32(nwritten, n, true);
          return 0;
        }
        : () => 0;
    }
    const instance = await WebAssembly.instantiate(module, { wgpu, wasi_snapshot_preview1: wasi });
    this.#exports = instance.exports;
  }

  // Compiles the pipelines of the plans that `specs` describe without blocking the
  // calling thread (createComputePipelineAsync, all at once), so that creating those
  // plans afterwards compiles nothing: a page awaits this at start-up instead of
  // stalling at the first call. specs: [{ primitive, ...options }], primitive one of
  // PREPARE's names below, options those of its create*Plan (capacity matters: plans
  // pick algorithms by it). Host helpers (wg.scan and its kin) use such plans too.
  // Resolves to the number of pipelines compiled; rejects on a bad spec (nothing then
  // compiles) or a failed compile.
  async prepare(specs) {
    this.#live();
    if (!Array.isArray(specs)) invalid('prepare takes an array of { primitive, ...options }');
    if (this.#compiling) invalid('prepare() is already running on this instance: await it first');
    const made = [];
    this.#compiling = [];
    let compiling;
    try {
      for (const spec of specs) {
        const { primitive, ...options } = spec ?? {};
        const create = PREPARE[primitive];
        if (!create) invalid(`prepare: unknown primitive ${primitive} (one of ${Object.keys(PREPARE).join(', ')})`);
        made.push(this[create](options));
      }
    } finally {
      compiling = this.#compiling;
      this.#compiling = null;
    }
    try {
      const settled = await Promise.allSettled(compiling);
      const bad = settled.find((r) => r.status === 'rejected');
      if (bad) fail(ErrorCode.GPU_INTERNAL, `compiling a pipeline: ${bad.reason?.message ?? bad.reason}`);
    } finally {
      for (const p of made) p.destroy();
    }
    await this.errors();
    return compiling.length;
  }

  // Pipelines this instance compiled: created (synchronously, by plan creation) and
  // prepared (by prepare()). Plans share compiled pipelines, so a count that stays put
  // across a plan's creation means it compiled nothing.
  get pipelines() { return { ...this.#pipelineCounts }; }

  // Resolves when the WebGPU error scopes of all calls so far have settled; throws the
  // first error they caught (validation, out-of-memory, internal) as a WgscanError.
  async errors() {
    const pending = this.#pending;
    this.#pending = [];
    const caught = (await Promise.all(pending)).filter(Boolean);
    if (this.#lost) fail(ErrorCode.DEVICE_LOST, 'the GPUDevice was lost');
    if (caught.length) fail(caught[0].code, caught[0].message);
  }

  // Destroys the plans still alive, the library's context and its buffers. The device
  // stays the caller's. A second call does nothing; other calls then throw.
  destroy() {
    if (!this.#exports) return;
    for (const p of [...this.#plans]) p.destroy();
    this.#destroyingDo(() => {
      this.#exports.wgs_web_close();
      for (let h = 1; h < this.#objects.length; h++) if (this.#objects[h]) this.#drop(h);
    });
    this.#exports = null;
    this.#pending = [];
  }

  // ---- plans ---------------------------------------------------------------------
  // Scans of up to `capacity` elements. Options: type (u32, i32, f32, f16), op (add,
  // min, max, and, or, xor), kind (exclusive, inclusive), algorithm (auto,
  // single-pass, multilevel), capacity, deterministic.
  // operator: a user's operator instead of type and op, { source, element, combine,
  // identity, commutative } as wgscan.h's wgs_operator_desc (identity: the element's
  // bytes, an ArrayBuffer or a typed array); compiled through the same C code. Its
  // WGSL's compile errors arrive through errors() (or prepare()), as GPU validation
  // errors with the browser's message; the checks before (names, type, identity)
  // throw here.
  createScanPlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', kind: 'exclusive', algorithm: 'auto', capacity: 1, deterministic: false }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('scan', ScanPlan, 'wgs_web_scan_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'operator'), lookup(SCAN_KINDS, o.kind, 'kind'),
      lookup(SCAN_ALGORITHMS, o.algorithm, 'algorithm'), count(o.capacity, 'capacity'), o.deterministic ? 1 : 0], o);
  }

  // Reductions: op add, min, max, and/or/xor (integers), argmin, argmax; algorithm
  // auto (tree), tree, atomic; floatSum (f32 add, atomic) auto, cas, fixed-point;
  // fixedPointBits. The result: 4 bytes (8 with the index for arg ops). operator: as
  // createScanPlan's (no algorithm, floatSum or fixedPointBits beside it); the result
  // is one element.
  createReducePlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', algorithm: 'auto', floatSum: 'auto', fixedPointBits: 0, capacity: 1 }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('reduce', ReducePlan, 'wgs_web_reduce_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'operator'),
      lookup(REDUCE_ALGORITHMS, o.algorithm, 'algorithm'), lookup(FLOAT_SUMS, o.floatSum, 'float sum'),
      count(o.fixedPointBits, 'fixedPointBits'), count(o.capacity, 'capacity')], o);
  }

  // Counts of the elements that meet `predicate` ({ kind, a, b }); the result: a u32.
  createCountPlan(options = {}) {
    const o = withDefaults({ type: 'u32', predicate: { kind: 'nonzero' }, algorithm: 'auto', capacity: 1 }, options);
    return this.#plan('reduce', ReducePlan, 'wgs_web_count_plan_create', () => [
      lookup(TYPES, o.type, 'type'), ...predicateValues(o.predicate), lookup(REDUCE_ALGORITHMS, o.algorithm, 'algorithm'),
      count(o.capacity, 'capacity')], o);
  }

  // Stream compaction: mode flagged, if (predicate), unique, run-length; partition;
  // payload none, buffer, index; algorithm auto, single-pass, three-pass.
  createSelectPlan(options = {}) {
    const o = withDefaults({ type: 'u32', mode: 'flagged', predicate: { kind: 'nonzero' }, partition: false, payload: 'none',
      algorithm: 'auto', capacity: 1 }, options);
    return this.#plan('select', SelectPlan, 'wgs_web_select_plan_create', () => [
      lookup(TYPES, o.type, 'type'), lookup(SELECT_MODES, o.mode, 'mode'), ...predicateValues(o.predicate),
      o.partition ? 1 : 0, lookup(PAYLOADS, o.payload, 'payload'), lookup(SELECT_ALGORITHMS, o.algorithm, 'algorithm'),
      count(o.capacity, 'capacity')], o);
  }

  // Counts in `bins` even bins over [lower, upper).
  createHistogramPlan(options = {}) {
    const o = withDefaults({ type: 'u32', capacity: 1 }, options);
    return this.#plan('histogram', HistogramPlan, 'wgs_web_histogram_plan_create', () => [
      lookup(TYPES, o.type, 'type'), count(o.bins ?? 0, 'bins'), number(o.lower ?? NaN, 'lower'),
      number(o.upper ?? NaN, 'upper'), count(o.capacity, 'capacity')], o);
  }

  // A stable radix sort of up to `capacity` keys: type u32, i32, f32, u64, i64; order
  // ascending, descending; beginBit, endBit (0, 0: every bit of the key); payload none,
  // buffer (valueBytes 4 or 8 a value; 4 when not given), index; algorithm auto,
  // onesweep, reduce-scan.
  createSortPlan(options = {}) {
    const o = withDefaults({ type: 'u32', order: 'ascending', beginBit: 0, endBit: 0, payload: 'none', algorithm: 'auto',
      capacity: 1 }, options);
    o.valueBytes ??= o.payload === 'buffer' ? 4 : 0;
    return this.#plan('sort', SortPlan, 'wgs_web_sort_plan_create', () => [
      lookup(SORT_TYPES, o.type, 'key type'), lookup(SORT_ORDERS, o.order, 'order'), count(o.beginBit, 'beginBit'),
      count(o.endBit, 'endBit'), lookup(PAYLOADS, o.payload, 'payload'), count(o.valueBytes, 'valueBytes'),
      lookup(SORT_ALGORITHMS, o.algorithm, 'algorithm'), count(o.capacity, 'capacity')], o);
  }

  // The k largest or smallest keys of each row of a rows x n matrix (wgscan.h, Top-k):
  // type u32, i32, f32 (floats in the sort's order); select largest, smallest; output
  // sorted (best first, ties in index order), input-order; payload none, buffer (a
  // 4-byte value a key), index (each key's index within its row); capacity (n, keys a
  // row), kCapacity (the largest k; 0: min(capacity, 4096)), rowCapacity (rows).
  createTopkPlan(options = {}) {
    const o = withDefaults({ type: 'u32', select: 'largest', output: 'sorted', payload: 'none', capacity: 1, kCapacity: 0,
      rowCapacity: 1 }, options);
    return this.#plan('topk', TopkPlan, 'wgs_web_topk_plan_create', () => [
      lookup(SORT_TYPES, o.type, 'key type'), lookup(TOPK_SELECTS, o.select, 'select'),
      lookup(TOPK_OUTPUTS, o.output, 'output'), lookup(PAYLOADS, o.payload, 'payload'), count(o.capacity, 'capacity'),
      count(o.kCapacity, 'kCapacity'), count(o.rowCapacity, 'rowCapacity')], o);
  }

  // A stable sort within each segment (wgscan.h, Segmented sort): type, order as
  // createSortPlan's; payload none, buffer (valueBytes 4 or 8; 4 when not given), index
  // (each key's index in the whole input); segments 'offsets' or 'begin-end' as the
  // segmented reduce's; path auto (a workgroup sorts a segment up to tileSize(), the
  // radix sorts longer ones), small (longer ones refused through the status), large
  // (every segment by the radix sorts); capacity in keys, segmentCapacity in segments.
  createSegmentedSortPlan(options = {}) {
    const o = withDefaults({ type: 'u32', order: 'ascending', payload: 'none', segments: 'offsets', path: 'auto', capacity: 1,
      segmentCapacity: 1 }, options);
    o.valueBytes ??= o.payload === 'buffer' ? 4 : 0;
    return this.#plan('segmentedSort', SegmentedSortPlan, 'wgs_web_segmented_sort_plan_create', () => [
      lookup(SORT_TYPES, o.type, 'key type'), lookup(SORT_ORDERS, o.order, 'order'), lookup(PAYLOADS, o.payload, 'payload'),
      count(o.valueBytes, 'valueBytes'), lookup(SEGMENT_FORMS, o.segments, 'segments'),
      lookup(SEGMENTED_SORT_PATHS, o.path, 'path'), count(o.capacity, 'capacity'),
      count(o.segmentCapacity, 'segmentCapacity')], o);
  }

  // One reduction per segment: type u32, i32, f32; op as createReducePlan's; segments
  // 'offsets' (CSR: nSegments + 1 u32) or 'begin-end' (two arrays of nSegments u32);
  // capacity in values, segmentCapacity in segments.
  createSegmentedReducePlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', segments: 'offsets', capacity: 1, segmentCapacity: 1 }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('segmentedReduce', SegmentedReducePlan, 'wgs_web_segmented_reduce_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'op'), lookup(SEGMENT_FORMS, o.segments, 'segments'),
      count(o.capacity, 'capacity'), count(o.segmentCapacity, 'segmentCapacity')], o);
  }

  // Scans that start again at every segment: type and op as createScanPlan's, kind
  // exclusive or inclusive; heads 'keys' (runs of equal keys, keyType u32 or i32) or
  // 'flags' (one byte an element, a segment starts where it is not zero).
  createScanByKeyPlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', kind: 'exclusive', heads: 'keys', keyType: 'u32', capacity: 1 }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('scanByKey', ScanByKeyPlan, 'wgs_web_scan_by_key_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'operator'), lookup(SCAN_KINDS, o.kind, 'kind'),
      lookup(SEGMENT_HEADS, o.heads, 'heads'), lookup(KEY_TYPES, o.keyType, 'keyType'), count(o.capacity, 'capacity')], o);
  }

  // Scans that start again at every segment given by offsets: type, op and kind as
  // createScanByKeyPlan's; segments 'offsets' (CSR: nSegments + 1 u32) or 'begin-end'
  // (two arrays of nSegments u32, gaps allowed); capacity in values, segmentCapacity in
  // segments. Elements in no segment get the operator's identity.
  createSegmentedScanPlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', kind: 'exclusive', segments: 'offsets', capacity: 1, segmentCapacity: 1 }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('segmentedScan', SegmentedScanPlan, 'wgs_web_segmented_scan_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'operator'), lookup(SCAN_KINDS, o.kind, 'kind'),
      lookup(SEGMENT_FORMS, o.segments, 'segments'), count(o.capacity, 'capacity'),
      count(o.segmentCapacity, 'segmentCapacity')], o);
  }

  // One reduction per run of equal keys: type and op as createScanPlan's, keyType u32
  // or i32; the number of runs lands in a GPU buffer (numRuns).
  createReduceByKeyPlan(options = {}) {
    const o = withOperator(withDefaults({ type: 'u32', op: 'add', keyType: 'u32', capacity: 1 }, options), options);
    const custom = o.operator !== undefined;
    return this.#plan('reduceByKey', ReduceByKeyPlan, 'wgs_web_reduce_by_key_plan_create', () => [
      custom ? 0 : lookup(TYPES, o.type, 'type'), custom ? 0 : lookup(OPS, o.op, 'operator'), lookup(KEY_TYPES, o.keyType, 'keyType'),
      count(o.capacity, 'capacity')], o);
  }

  // A bump allocator serving up to `capacity` requests a call: algorithm auto (scan),
  // scan, atomic.
  createAllocPlan(options = {}) {
    const o = withDefaults({ algorithm: 'auto', capacity: 1 }, options);
    return this.#plan('alloc', AllocPlan, 'wgs_web_alloc_plan_create', () => [
      lookup(ALLOC_ALGORITHMS, o.algorithm, 'algorithm'), count(o.capacity, 'capacity')], o);
  }

  // ---- host arrays -----------------------------------------------------------------
  // Runs `plan` once on host data: buffers named by `args` are made from `uploads`
  // (typed arrays, or byte counts for zeroed ones), those in `downloads` come back as
  // ArrayBuffers. Also times the passes where the device has timestamp-query.
  async #runHost(plan, uploads, downloads, args) {
    const dev = this.#device;
    const U = GPUBufferUsage;
    const made = [];
    const make = (size, usage) => {
      const b = dev.createBuffer({ size: Math.max(4, Math.ceil(size / 4) * 4), usage });
      made.push(b);
      return b;
    };
    try {
      const t0 = performance.now();
      const bufs = {};
      for (const [name, data] of Object.entries(uploads)) {
        const bytes = typeof data === 'number' ? data : data.byteLength;
        bufs[name] = make(bytes, U.STORAGE | U.COPY_DST | U.COPY_SRC);
        if (typeof data !== 'number' && bytes) {
          const padded = new Uint8Array(bufs[name].size);
          padded.set(new Uint8Array(data.buffer, data.byteOffset, bytes));
          dev.queue.writeBuffer(bufs[name], 0, padded);
        }
      }
      const timed = this.info.timestampQuery;
      const qs = timed ? dev.createQuerySet({ type: 'timestamp', count: 2 }) : null;
      const encoder = dev.createCommandEncoder();
      plan.encode(encoder, { ...args, ...bufs, timestampWrites: qs ? { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } : undefined });
      const staging = {};
      for (const name of downloads) {
        staging[name] = make(bufs[name].size, U.MAP_READ | U.COPY_DST);
        encoder.copyBufferToBuffer(bufs[name], 0, staging[name], 0, bufs[name].size);
      }
      let times = null;
      if (qs) {
        const resolved = make(16, U.QUERY_RESOLVE | U.COPY_SRC);
        times = make(16, U.MAP_READ | U.COPY_DST);
        encoder.resolveQuerySet(qs, 0, 2, resolved, 0);
        encoder.copyBufferToBuffer(resolved, 0, times, 0, 16);
      }
      dev.queue.submit([encoder.finish()]);
      qs?.destroy();
      await this.errors();
      const out = {};
      for (const name of downloads) {
        await staging[name].mapAsync(GPUMapMode.READ);
        out[name] = staging[name].getMappedRange().slice(0);
        staging[name].unmap();
      }
      let gpuMs = null;
      if (times) {
        await times.mapAsync(GPUMapMode.READ);
        const t = new BigUint64Array(times.getMappedRange());
        gpuMs = t[1] > t[0] ? Number(t[1] - t[0]) / 1e6 : 0;
        times.unmap();
      }
      return { out, gpuMs, totalMs: performance.now() - t0 };
    } finally {
      for (const b of made) b.destroy();
    }
  }

  // The host helpers' plans, kept for the next call of the same options (up to
  // HOST_PLANS, the least recently used dropped): a plan compiles its pipelines once.
  #hostPlans = new Map();
  #hostPlan(create, options, n) {
    // (Arrays of data stay out of the key; an operator's identity is part of it.)
    const bytes = (v) => Array.from(v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    const key = `${create.name}:${JSON.stringify(options, (k, v) => (k === 'identity' && (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) ? bytes(v)
      : ArrayBuffer.isView(v) ? undefined : v))}`;
    let plan = this.#hostPlans.get(key);
    this.#hostPlans.delete(key);
    if (plan && (plan.destroyed || plan.capacity < n)) {
      plan.destroy();
      plan = null;
    }
    // Capacity in powers of two, so that growing sizes make few plans.
    plan ??= create.call(this, { ...options, capacity: powerOfTwo(n) });
    this.#hostPlans.set(key, plan);
    for (const [k, p] of this.#hostPlans) {
      if (this.#hostPlans.size <= HOST_PLANS) break;
      p.destroy();
      this.#hostPlans.delete(k);
    }
    return plan;
  }

  // Scans a typed array (Uint32Array, Int32Array, Float32Array, or Uint16Array holding
  // f16 bits); options as createScanPlan's. Returns { output, algorithm, gpuMs, totalMs }.
  // With options.operator, input is any typed array whose bytes are whole elements of
  // the operator (n = bytes / the identity's bytes), and output the same kind of array.
  async scan(input, options = {}) {
    if (options.operator !== undefined) {
      const { n, size } = operatorInput(input, options.operator);
      const plan = this.#hostPlan(this.createScanPlan, options, n);
      const r = await this.#runHost(plan, { input, output: n * size }, ['output'], { n });
      return { output: new input.constructor(r.out.output, 0, (n * size) / input.BYTES_PER_ELEMENT),
        algorithm: plan.algorithmFor(n, false), gpuMs: r.gpuMs, totalMs: r.totalMs };
    }
    const type = inputType(input, options);
    const n = input.length;
    const plan = this.#hostPlan(this.createScanPlan, { ...options, type }, n);
    const r = await this.#runHost(plan, { input, output: n * ELEMENT_SIZE[type] }, ['output'], { n });
    return { output: arrayFor(type, r.out.output, n, input), algorithm: plan.algorithmFor(n, false), gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // Reduces a typed array; options as createReducePlan's. Returns { value, index,
  // gpuMs, totalMs }: index for argmin/argmax (NO_INDEX for no elements), else undefined.
  // With options.operator, input as for scan's and value the element, an array of the
  // input's kind (the identity for no elements).
  async reduce(input, options = {}) {
    if (options.operator !== undefined) {
      const { n, size } = operatorInput(input, options.operator);
      const plan = this.#hostPlan(this.createReducePlan, options, n);
      const r = await this.#runHost(plan, { input, output: size }, ['output'], { n });
      return { value: new input.constructor(r.out.output, 0, size / input.BYTES_PER_ELEMENT), index: undefined,
        gpuMs: r.gpuMs, totalMs: r.totalMs };
    }
    const type = inputType(input, options);
    const n = input.length;
    const plan = this.#hostPlan(this.createReducePlan, { ...options, type }, n);
    const r = await this.#runHost(plan, { input, output: 8 }, ['output'], { n });
    const arg = plan.op === 'argmin' || plan.op === 'argmax';
    return { value: arrayFor(type, r.out.output, 1)[0], index: arg ? new Uint32Array(r.out.output)[1] : undefined, gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // Counts the elements of a typed array that meet options.predicate ({ kind, a, b }).
  // Returns { count, gpuMs, totalMs }.
  async count(input, options = {}) {
    const type = inputType(input, options);
    const n = input.length;
    const plan = this.#hostPlan(this.createCountPlan, { ...options, type }, n);
    const r = await this.#runHost(plan, { input, output: 4 }, ['output'], { n });
    return { count: new Uint32Array(r.out.output)[0], gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // Stream compaction of a typed array. Options as createSelectPlan's, and: flags (a
  // Uint8Array, one byte per element: mode 'flagged', the default when given),
  // predicate (mode 'if', the default when given), payload 'index' or a typed array of
  // 4-byte values that moves along. Returns { output, payload, count, gpuMs, totalMs }:
  // output holds the count selected (n for a partition), payload the payload plan's
  // values or, for run-length, the run lengths.
  async select(input, options = {}) {
    const type = inputType(input, options);
    const n = input.length;
    const { flags, payload, ...rest } = options;
    const mode = rest.mode ?? (flags ? 'flagged' : rest.predicate ? 'if' : invalid('select needs flags, a predicate or a mode'));
    if (mode === 'flagged' && !(flags instanceof Uint8Array && flags.length >= n)) invalid('flags must be a Uint8Array of n bytes');
    let payloadKind = 'none';
    const uploads = { input, output: n * 4, count: 4 };
    if (payload === 'index') payloadKind = 'index';
    else if (payload != null) {
      if (!ArrayBuffer.isView(payload) || payload.BYTES_PER_ELEMENT !== 4 || payload.length < n) invalid('payload must be \'index\' or a typed array of n 4-byte values');
      payloadKind = 'buffer';
      uploads.payloadIn = payload;
    }
    if (mode === 'flagged') uploads.flags = flags.subarray(0, n);
    const withPayload = payloadKind !== 'none' || mode === 'run-length';
    if (withPayload) uploads.payloadOut = n * 4;
    const plan = this.#hostPlan(this.createSelectPlan, { ...rest, type, mode, payload: payloadKind }, n);
    const r = await this.#runHost(plan, uploads, ['output', 'count'].concat(withPayload ? ['payloadOut'] : []), { n });
    const selected = new Uint32Array(r.out.count)[0];
    const kept = plan.partition ? n : selected;
    const result = { output: arrayFor(type, r.out.output, kept), count: selected, gpuMs: r.gpuMs, totalMs: r.totalMs };
    if (withPayload) {
      const P = payloadKind === 'buffer' ? payload.constructor : Uint32Array;
      result.payload = new P(r.out.payloadOut, 0, kept);
    }
    return result;
  }

  // The stable partition: the selected elements, then the others. Options as select's.
  partition(input, options = {}) { return this.select(input, { ...options, partition: true }); }
  // The first element of each run of equal consecutive elements.
  unique(input, options = {}) { return this.select(input, { ...options, mode: 'unique' }); }
  // Run-length encoding: { values, lengths, count, gpuMs, totalMs }.
  async runLengthEncode(input, options = {}) {
    const r = await this.select(input, { ...options, mode: 'run-length' });
    return { values: r.output, lengths: r.payload, count: r.count, gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // The histogram of a typed array: options bins, lower, upper. Returns { counts, gpuMs, totalMs }.
  async histogram(input, options = {}) {
    const type = inputType(input, options);
    const n = input.length;
    const plan = this.#hostPlan(this.createHistogramPlan, { ...options, type }, n);
    const bins = plan.bins;
    const r = await this.#runHost(plan, { input, output: bins * 4 }, ['output'], { n });
    return { counts: new Uint32Array(r.out.output, 0, bins), gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // Sorts typed-array keys, stably: Uint32Array (u32), Int32Array (i32), Float32Array
  // (f32), BigUint64Array (u64), BigInt64Array (i64); options.type names another key type
  // of the same element size (e.g. 'f32' for a Uint32Array of float bits). Options as
  // createSortPlan's, and values: 'index' (each key's input index comes back) or a typed
  // array of n 4- or 8-byte values that move with their keys. Returns { keys, values,
  // gpuMs, totalMs }: keys in the input's array type, values in the values' (indices: a
  // Uint32Array; undefined without values).
  async sort(keys, options = {}) {
    const { values, ...rest } = options;
    delete rest.payload; // both follow from values
    delete rest.valueBytes;
    const type = sortKeyType(keys, rest.type);
    const n = keys.length;
    const uploads = { keysIn: keys, keysOut: n * keys.BYTES_PER_ELEMENT };
    const { payload, valueBytes, input } = sortPayload(values, n);
    if (payload !== 'none') uploads.valuesOut = n * (valueBytes || 4);
    if (input) uploads.valuesIn = input;
    const plan = this.#hostPlan(this.createSortPlan, { ...rest, type, payload, valueBytes }, n);
    const r = await this.#runHost(plan, uploads, ['keysOut'].concat(payload === 'none' ? [] : ['valuesOut']), { n });
    const K = keys.constructor;
    const V = payload === 'buffer' ? values.constructor : Uint32Array;
    return {
      keys: new K(r.out.keysOut, 0, n), values: payload === 'none' ? undefined : new V(r.out.valuesOut, 0, n),
      gpuMs: r.gpuMs, totalMs: r.totalMs,
    };
  }

  // The k largest (select 'largest', the default) or smallest keys of each of
  // options.rows rows (default 1) of typed-array keys, the rows one after another (n =
  // keys.length / rows each): Uint32Array (u32), Int32Array (i32), Float32Array (f32);
  // options.type names another 4-byte key type (e.g. 'f32' for a Uint32Array of float
  // bits). options.k, 1 to n, is required; output 'sorted' (best first, the default) or
  // 'input-order'; values 'index' (each key's index within its row) or a typed array of
  // rows x n 4-byte values that move with their keys. Ties go to the lower index.
  // Returns { keys, values, gpuMs, totalMs }: rows x k of each (row r's at r * k), keys
  // in the input's array type, values in the values' (indices: a Uint32Array; undefined
  // without values).
  async topk(keys, options = {}) {
    const { values, k, rows = 1, ...rest } = options;
    for (const name of ['payload', 'kCapacity', 'rowCapacity']) delete rest[name]; // from values, k and rows
    const type = sortKeyType(keys, rest.type);
    count(rows, 'rows');
    count(k, 'k');
    if (rows < 1 || keys.length % rows) invalid(`rows must be 1 or more and divide the ${keys.length} keys, not ${rows}`);
    const n = keys.length / rows;
    // The encode refuses these too; the buffers' sizes need them sane first.
    if (n < 1 || k < 1 || k > n) invalid(`top-k needs n >= 1 keys a row and 1 <= k <= n (n ${n}, k ${k})`);
    const uploads = { keysIn: keys, keysOut: rows * k * 4 };
    let payload = 'none';
    if (values === 'index') payload = 'index';
    else if (values != null) {
      if (!(ArrayBuffer.isView(values) && !(values instanceof DataView) && values.BYTES_PER_ELEMENT === 4) || values.length < rows * n) {
        invalid('values must be \'index\' or a typed array of rows x n 4-byte values');
      }
      payload = 'buffer';
      uploads.valuesIn = values.subarray(0, rows * n);
    }
    if (payload !== 'none') uploads.valuesOut = rows * k * 4;
    const plan = this.#hostPlan(this.createTopkPlan, { ...rest, type, payload, rowCapacity: powerOfTwo(rows),
      kCapacity: Math.min(powerOfTwo(k), powerOfTwo(n)) }, n);
    const r = await this.#runHost(plan, uploads, ['keysOut'].concat(payload === 'none' ? [] : ['valuesOut']), { n, rows, k });
    const V = payload === 'buffer' ? values.constructor : Uint32Array;
    return {
      keys: new keys.constructor(r.out.keysOut, 0, rows * k),
      values: payload === 'none' ? undefined : new V(r.out.valuesOut, 0, rows * k), gpuMs: r.gpuMs, totalMs: r.totalMs,
    };
  }

  // Sorts typed-array keys (as sort's, options.type too) stably within each segment:
  // options.offsets (a Uint32Array of nSegments + 1 CSR offsets) or options.begin and
  // options.end (Uint32Arrays of nSegments each, gaps allowed); order and path as
  // createSegmentedSortPlan's; values as sort's ('index': each key's index in the whole
  // input). Keys and values in no segment stay as they were (indices: their own).
  // Returns { keys, values, gpuMs, totalMs }. Offsets out of order or past n throw
  // WgscanError with the GPU's code (SEGMENTS_UNORDERED, SEGMENT_OUT_OF_RANGE; with path
  // 'small', TOO_LARGE for a segment longer than the tile).
  async segmentedSort(keys, options = {}) {
    const { values, offsets, begin, end, ...rest } = options;
    for (const name of ['payload', 'valueBytes', 'segments', 'segmentCapacity']) delete rest[name];
    const type = sortKeyType(keys, rest.type);
    const n = keys.length;
    // The outputs start as the inputs: what no segment covers comes back as it was.
    const uploads = { keysIn: keys, keysOut: keys, status: 4 };
    const { segments, nSegments, segmentCapacity } = hostSegments({ offsets, begin, end }, uploads);
    const { payload, valueBytes, input } = sortPayload(values, n);
    if (input) uploads.valuesIn = uploads.valuesOut = input;
    if (payload === 'index') uploads.valuesOut = Uint32Array.from({ length: n }, (_, i) => i);
    const plan = this.#hostPlan(this.createSegmentedSortPlan, { ...rest, type, payload, valueBytes, segments, segmentCapacity }, n);
    const r = await this.#runHost(plan, uploads, ['keysOut', 'status'].concat(payload === 'none' ? [] : ['valuesOut']),
      { n, nSegments });
    checkSegmentStatus(r.out.status);
    const V = payload === 'buffer' ? values.constructor : Uint32Array;
    return {
      keys: new keys.constructor(r.out.keysOut, 0, n), values: payload === 'none' ? undefined : new V(r.out.valuesOut, 0, n),
      gpuMs: r.gpuMs, totalMs: r.totalMs,
    };
  }

  // One reduction per segment of a typed array (Uint32Array, Int32Array, Float32Array):
  // options.offsets (a Uint32Array of nSegments + 1 CSR offsets) or options.begin and
  // options.end (Uint32Arrays of nSegments each); op as reduce's. Returns { output,
  // index, gpuMs, totalMs }: output holds a value a segment (empty segments: the
  // identity), index (argmin/argmax) the values' index of each (NO_INDEX for an empty
  // segment). Offsets out of order or past n throw WgscanError with the GPU's code
  // (SEGMENTS_UNORDERED, SEGMENT_OUT_OF_RANGE).
  async segmentedReduce(input, options = {}) {
    const v = hostValues(input, options);
    const type = v.type;
    if (type === 'f16') invalid('the segmented reduce takes u32, i32 or f32 values');
    const { offsets, begin, end, ...rest } = options;
    const n = v.n;
    const uploads = { input, status: 4 };
    const { segments, nSegments, segmentCapacity } = hostSegments({ offsets, begin, end }, uploads);
    const arg = rest.op === 'argmin' || rest.op === 'argmax';
    uploads.output = nSegments * (arg ? 8 : v.size);
    const plan = this.#hostPlan(this.createSegmentedReducePlan, { ...rest, ...(v.custom ? {} : { type }), segments, segmentCapacity }, n);
    const r = await this.#runHost(plan, uploads, ['output', 'status'], { n, nSegments });
    checkSegmentStatus(r.out.status);
    if (v.custom) return { output: v.wrap(r.out.output, nSegments), index: undefined, gpuMs: r.gpuMs, totalMs: r.totalMs };
    const words = new Uint32Array(r.out.output, 0, nSegments * (arg ? 2 : 1));
    let output = arrayFor(type, r.out.output, nSegments), index;
    if (arg) {
      const bits = new Uint32Array(nSegments);
      index = new Uint32Array(nSegments);
      for (let s = 0; s < nSegments; s++) { bits[s] = words[2 * s]; index[s] = words[2 * s + 1]; }
      output = arrayFor(type, bits.buffer, nSegments);
    }
    return { output, index, gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // The scan by key of a typed array (as scan's): options.keys (a Uint32Array or
  // Int32Array of n keys: runs of equal keys are the segments) or options.flags (a
  // Uint8Array of n bytes: a segment starts where one is not zero); op and kind as
  // scan's; initValue (optional) a carry-in that joins the first segment (f16: its
  // bits). Returns { output, gpuMs, totalMs }.
  async scanByKey(input, options = {}) {
    const v = hostValues(input, options);
    const type = v.type;
    const n = v.n;
    const { keys, flags, initValue, ...rest } = options;
    if (v.custom && initValue !== undefined) invalid('initValue with an operator: use a plan and initBuffer (one element)');
    const uploads = { input, output: n * v.size };
    let heads, keyType = 'u32';
    if (keys != null) {
      if (flags != null) invalid('give keys or flags, not both');
      if (!(keys instanceof Uint32Array || keys instanceof Int32Array) || keys.length < n) invalid('keys must be a Uint32Array or Int32Array of n keys');
      heads = 'keys';
      keyType = keys instanceof Int32Array ? 'i32' : 'u32';
      uploads.keys = keys.subarray(0, n);
    } else {
      if (!(flags instanceof Uint8Array && flags.length >= n)) invalid('scanByKey needs keys or flags (a Uint8Array of n bytes)');
      heads = 'flags';
      uploads.flags = flags.subarray(0, n);
    }
    const plan = this.#hostPlan(this.createScanByKeyPlan, { ...rest, ...(v.custom ? {} : { type }), heads, keyType }, n);
    const r = await this.#runHost(plan, uploads, ['output'], { n, initValue });
    const output = v.custom ? v.wrap(r.out.output, n) : arrayFor(type, r.out.output, n, input);
    return { output, gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // The segmented scan of a typed array (as scan's): options.offsets (a Uint32Array of
  // nSegments + 1 CSR offsets) or options.begin and options.end (Uint32Arrays of
  // nSegments each, gaps allowed); op and kind as scan's. Returns { output, gpuMs,
  // totalMs }: n values, the identity in no segment. Offsets out of order or past n
  // throw WgscanError with the GPU's code (SEGMENTS_UNORDERED, SEGMENT_OUT_OF_RANGE).
  async segmentedScan(input, options = {}) {
    const v = hostValues(input, options);
    const type = v.type;
    const n = v.n;
    const { offsets, begin, end, ...rest } = options;
    const uploads = { input, output: n * v.size, status: 4 };
    const { segments, nSegments, segmentCapacity } = hostSegments({ offsets, begin, end }, uploads);
    const plan = this.#hostPlan(this.createSegmentedScanPlan, { ...rest, ...(v.custom ? {} : { type }), segments, segmentCapacity }, n);
    const r = await this.#runHost(plan, uploads, ['output', 'status'], { n, nSegments });
    checkSegmentStatus(r.out.status);
    const output = v.custom ? v.wrap(r.out.output, n) : arrayFor(type, r.out.output, n, input);
    return { output, gpuMs: r.gpuMs, totalMs: r.totalMs };
  }

  // One reduction per run of equal keys: keys a Uint32Array or Int32Array, values a
  // u32, i32 or f32 typed array of as many; op as the segmented reduce's. Returns
  // { uniqueKeys, aggregates, index, numRuns, gpuMs, totalMs }: the first key of each
  // run (in the keys' array type), its reduction and, for argmin/argmax, the index of
  // its extreme value (else undefined), numRuns of each.
  async reduceByKey(keys, values, options = {}) {
    if (!(keys instanceof Uint32Array || keys instanceof Int32Array)) invalid('keys must be a Uint32Array or Int32Array');
    const v = hostValues(values, options);
    const type = v.type;
    if (type === 'f16') invalid('the reduce by key takes u32, i32 or f32 values');
    const n = keys.length;
    if (v.n !== n) invalid('keys and values must be of one length');
    const keyType = keys instanceof Int32Array ? 'i32' : 'u32';
    const arg = options.op === 'argmin' || options.op === 'argmax';
    const plan = this.#hostPlan(this.createReduceByKeyPlan, { ...options, ...(v.custom ? {} : { type }), keyType }, n);
    const uploads = { keys, input: values, uniqueKeys: n * 4, aggregates: n * (arg ? 8 : v.size), numRuns: 4 };
    const r = await this.#runHost(plan, uploads, ['uniqueKeys', 'aggregates', 'numRuns'], { n });
    const runs = new Uint32Array(r.out.numRuns)[0];
    let aggregates = v.custom ? v.wrap(r.out.aggregates, runs) : arrayFor(type, r.out.aggregates, runs), index;
    if (arg) {
      const words = new Uint32Array(r.out.aggregates, 0, 2 * runs), bits = new Uint32Array(runs);
      index = new Uint32Array(runs);
      for (let k = 0; k < runs; k++) { bits[k] = words[2 * k]; index[k] = words[2 * k + 1]; }
      aggregates = arrayFor(type, bits.buffer, runs);
    }
    return {
      uniqueKeys: new keys.constructor(r.out.uniqueKeys, 0, runs), aggregates, index,
      numRuns: runs, gpuMs: r.gpuMs, totalMs: r.totalMs,
    };
  }

  // Serves requests of sizes[i] units from an arena of options.arenaSize units whose
  // top is options.top (default 0); algorithm auto (scan), scan, atomic. Returns
  // { offsets (ALLOC_FAILED for a request that did not fit), top, gpuMs, totalMs }.
  async allocate(sizes, options = {}) {
    if (!(sizes instanceof Uint32Array)) invalid('sizes must be a Uint32Array');
    const n = sizes.length;
    const top = options.top ?? 0;
    if (!(count(top, 'top') <= 0xFFFFFFFF)) invalid('top must fit 32 bits');
    const plan = this.#hostPlan(this.createAllocPlan, { algorithm: options.algorithm }, n);
    const r = await this.#runHost(plan, { sizes, offsets: n * 4, state: new Uint32Array([top, 0]) }, ['offsets', 'state'],
      { n, arenaSize: options.arenaSize });
    return { offsets: new Uint32Array(r.out.offsets, 0, n), top: new Uint32Array(r.out.state)[0], gpuMs: r.gpuMs, totalMs: r.totalMs };
  }
}
