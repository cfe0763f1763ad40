// SPDX-License-Identifier: MIT
// wgscan.d.ts: the types of wgscan.js. WebGPU's own types (GPUDevice, GPUBuffer, ...)
// come from @webgpu/types: add it to your project's "types" (see README.md).
/// <reference types="@webgpu/types" />

/** Element types. 'f16' needs the device feature shader-f16 (scan only); f16 data is
 * raw IEEE half bits in a Uint16Array. */
export type ElementType = 'u32' | 'i32' | 'f32' | 'f16';
/** A typed array of one of the element types. */
export type ElementArray = Uint32Array | Int32Array | Float32Array | Uint16Array;
export type ScanOp = 'add' | 'min' | 'max' | 'and' | 'or' | 'xor';
/** Sort key types: the 64-bit ones are the sort's alone (as BigUint64Array, BigInt64Array). */
export type SortKeyType = 'u32' | 'i32' | 'f32' | 'u64' | 'i64';
/** A typed array of sort keys. */
export type SortKeyArray = Uint32Array | Int32Array | Float32Array | BigUint64Array | BigInt64Array;
/** Values that move with sorted keys: 4-byte or 8-byte elements. */
export type SortValueArray = Uint32Array | Int32Array | Float32Array | BigUint64Array | BigInt64Array | Float64Array;
export type ReduceOp = ScanOp | 'argmin' | 'argmax';

/** What count and select test each element against; a and b are converted to the
 * element type (exactly for integers: an operand the type cannot hold is refused). */
export interface Predicate {
  kind?: 'nonzero' | 'equal' | 'not-equal' | 'less' | 'greater' | 'in-range'; // default 'nonzero'
  a?: number;
  b?: number; // 'in-range': a <= v < b
}

/** The numbered result codes of wgscan.h, by short name (ErrorCode.BUFFER_TOO_SMALL === 6). */
export declare const ErrorCode: Readonly<{
  OK: 0; INVALID_ARGUMENT: 1; UNSUPPORTED_TYPE: 2; UNSUPPORTED_OPERATOR: 3; FEATURE_MISSING: 4;
  CAPACITY_EXCEEDED: 5; BUFFER_TOO_SMALL: 6; MISALIGNED_OFFSET: 7; BUFFER_USAGE: 8; ALIASING: 9;
  TOO_LARGE: 10; OUT_OF_HOST_MEMORY: 11; RUNTIME_NOT_FOUND: 12; NO_ADAPTER: 13;
  DEVICE_REQUEST_FAILED: 14; GPU_VALIDATION: 15; GPU_OUT_OF_MEMORY: 16; GPU_INTERNAL: 17;
  DEVICE_LOST: 18; MAP_FAILED: 19; TIMEOUT: 20; WRONG_CONTEXT: 21;
  SEGMENTS_UNORDERED: 22; SEGMENT_OUT_OF_RANGE: 23; OPERATOR_TYPE: 24; OPERATOR_TOO_LARGE: 25;
  OPERATOR_IDENTITY: 26; OPERATOR_RESERVED_NAME: 27; OPERATOR_COMPILE: 28;
}>;
export type ErrorCodeNumber = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The index an arg-min/arg-max of no elements gives (0xFFFFFFFF). */
export declare const NO_INDEX: number;
/** The offset of an allocation request that did not fit (0xFFFFFFFF). */
export declare const ALLOC_FAILED: number;

/** Every failure: the native library's numbered code, its name and a message. */
export declare class WgscanError extends Error {
  constructor(code: number, message?: string);
  /** wgscan.h's number, never reused: compare with ErrorCode. */
  readonly code: ErrorCodeNumber | number;
  /** wgscan.h's name, e.g. 'WGS_ERROR_BUFFER_TOO_SMALL'. */
  readonly name: string;
}

/** What the library knows of the device. */
export interface AdapterInfo {
  /** A readable name: the description, else vendor and architecture ('unknown adapter'
   * where the browser names none). */
  readonly name: string;
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  readonly backend: 'webgpu';
  readonly adapterType: 'gpu' | 'cpu';
  readonly subgroupMinSize: number;
  readonly subgroupMaxSize: number;
  readonly subgroups: boolean;
  readonly timestampQuery: boolean;
  readonly shaderF16: boolean;
  readonly maxBufferSize: number;
  readonly maxStorageBufferBindingSize: number;
}

export interface CreateOptions {
  /** wgscan.wasm: its URL, its bytes or a compiled module (default: beside wgscan.js). */
  wasm?: string | URL | BufferSource | WebAssembly.Module;
  /** The adapter's info, for browsers whose GPUDevice has no adapterInfo. */
  adapterInfo?: GPUAdapterInfo;
}

/** Timestamps of a primitive: the begin of its first pass and the end of its last. */
export type TimestampWrites = GPUComputePassTimestampWrites;

// ---- plans ------------------------------------------------------------------------
interface PlanOptionsBase {
  /** The largest n an encode may take (default 1). */
  capacity?: number;
}
/** A user's operator (wgscan.h, "Your own operator"): an element type and an associative
 * WGSL function, composed into the kernels by the same C code as the built-ins. The
 * checks before compiling (names, type, identity) throw WgscanError at creation; WGSL
 * that does not compile arrives through errors() (or prepare()) as GPU_VALIDATION with
 * the browser's message (Dawn's names the line of `source`). */
export interface OperatorDescription {
  /** WGSL: the element's struct (if any), constants and functions; no bindings. */
  source: string;
  /** u32, i32, f32, a vec2 or vec4 of them, or a struct of 1 to 4 such fields in source. */
  element: string;
  /** The combining function's name: fn (a: element, b: element) -> element, `a` the earlier part of the input. */
  combine: string;
  /** The identity's bytes: as many as the element has. */
  identity: ArrayBuffer | ArrayBufferView;
  /** Lets a primitive combine in another order; default false. */
  commutative?: boolean;
}
export interface ScanPlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): buffers hold its elements. */
  operator?: OperatorDescription;
  type?: ElementType;   // default 'u32'
  op?: ScanOp;          // default 'add'; and/or/xor for integers only
  kind?: 'exclusive' | 'inclusive'; // default 'exclusive'
  algorithm?: 'auto' | 'single-pass' | 'multilevel';
  /** The same bits every run for float sums (not with 'single-pass'). */
  deterministic?: boolean;
}
export interface ReducePlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): the result is one element. */
  operator?: OperatorDescription;
  type?: Exclude<ElementType, 'f16'>;
  op?: ReduceOp;        // default 'add'
  algorithm?: 'auto' | 'tree' | 'atomic';
  /** f32 add with 'atomic': compare-exchange ('cas', default) or 64-bit fixed point. */
  floatSum?: 'auto' | 'cas' | 'fixed-point';
  fixedPointBits?: number; // 1..40; 0: 24
}
export interface CountPlanOptions extends PlanOptionsBase {
  type?: Exclude<ElementType, 'f16'>;
  predicate?: Predicate;
  algorithm?: 'auto' | 'tree' | 'atomic' | 'atomic-per-element';
}
export type SelectMode = 'flagged' | 'if' | 'unique' | 'run-length';
export interface SelectPlanOptions extends PlanOptionsBase {
  type?: Exclude<ElementType, 'f16'>;
  mode?: SelectMode;    // default 'flagged'
  predicate?: Predicate; // mode 'if'
  /** The rejected elements follow the selected ones (not with unique, run-length). */
  partition?: boolean;
  /** 'buffer': a 4-byte value per element moves along; 'index': each kept element's index. */
  payload?: 'none' | 'buffer' | 'index';
  algorithm?: 'auto' | 'single-pass' | 'three-pass';
}
export interface HistogramPlanOptions extends PlanOptionsBase {
  type?: Exclude<ElementType, 'f16'>;
  /** 1 .. 2^20 even bins over [lower, upper). */
  bins: number;
  lower: number;
  upper: number;
}
export interface SegmentedReducePlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): values and results are its elements. */
  operator?: OperatorDescription;
  type?: Exclude<ElementType, 'f16'>; // default 'u32'
  op?: ReduceOp;        // default 'add'
  /** 'offsets' (CSR: nSegments + 1 u32, the default) or 'begin-end' (two arrays of
   * nSegments u32; gaps between segments allowed). */
  segments?: 'offsets' | 'begin-end';
  /** The most segments an encode takes (default 1). */
  segmentCapacity?: number;
}
export interface ScanByKeyPlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): values and results are its elements. */
  operator?: OperatorDescription;
  type?: ElementType;   // default 'u32'
  op?: ScanOp;          // default 'add'; and/or/xor for integers only
  kind?: 'exclusive' | 'inclusive'; // default 'exclusive'
  /** 'keys' (runs of equal adjacent keys, the default) or 'flags' (a byte an element,
   * a segment starts where it is not zero). Element 0 always starts one. */
  heads?: 'keys' | 'flags';
  keyType?: 'u32' | 'i32'; // default 'u32'; compared bit for bit
}
export interface SegmentedScanPlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): values and results are its elements. */
  operator?: OperatorDescription;
  type?: ElementType;   // default 'u32'
  op?: ScanOp;          // default 'add'; and/or/xor for integers only
  kind?: 'exclusive' | 'inclusive'; // default 'exclusive'
  /** 'offsets' (CSR: nSegments + 1 u32, the default) or 'begin-end' (two arrays of
   * nSegments u32; gaps between segments allowed). Elements in no segment get the
   * operator's identity. */
  segments?: 'offsets' | 'begin-end';
  /** The most segments an encode takes (default 1). */
  segmentCapacity?: number;
}
export interface ReduceByKeyPlanOptions extends PlanOptionsBase {
  /** Instead of type and op (neither beside it): values and results are its elements. */
  operator?: OperatorDescription;
  type?: Exclude<ElementType, 'f16'>; // default 'u32'
  op?: ReduceOp;        // default 'add'
  keyType?: 'u32' | 'i32';
}
export interface SortPlanOptions extends PlanOptionsBase {
  type?: SortKeyType;   // default 'u32'
  /** Stable either way. f32 keys order by their bits with the sign flipped: -NaN < -inf <
   * ... < -0 < +0 < ... < +inf < +NaN. */
  order?: 'ascending' | 'descending'; // default 'ascending'
  /** Only bits [beginBit, endBit) of the (order-transformed) key decide; 0, 0: all. */
  beginBit?: number;
  endBit?: number;
  /** 'buffer': a value of valueBytes per key moves with it; 'index': each key's input index. */
  payload?: 'none' | 'buffer' | 'index';
  /** 'buffer': 4 (the default) or 8; otherwise 0. */
  valueBytes?: 0 | 4 | 8;
  /** 'auto' (on GPUs of 32-lane subgroups one-sweep for one-word values or indices, and other sorts up to 2^21 keys; else reduce-then-scan), 'onesweep' (decoupled look-back; capacity < 2^30), 'reduce-scan'. */
  algorithm?: 'auto' | 'onesweep' | 'reduce-scan';
}
export interface TopkPlanOptions extends PlanOptionsBase {
  /** Keys: 'u32' (default), 'i32' or 'f32' (in the sort's order: +NaN the largest, -NaN
   * the smallest, -0 below +0). */
  type?: 'u32' | 'i32' | 'f32';
  select?: 'largest' | 'smallest'; // default 'largest'
  /** 'sorted' (default): best first, ties in index order; 'input-order': the same k in
   * their input order (cheaper). */
  output?: 'sorted' | 'input-order';
  /** 'buffer': a 4-byte value a key moves with it; 'index': each key's index within its row. */
  payload?: 'none' | 'buffer' | 'index';
  /** The largest k; 0 (default): min(capacity, 4096). Sorted output past 4096 takes one row. */
  kCapacity?: number;
  /** The most rows (default 1). capacity is the most keys a row. */
  rowCapacity?: number;
}
export interface SegmentedSortPlanOptions extends PlanOptionsBase {
  type?: SortKeyType;   // default 'u32'
  /** Stable either way; f32 keys in the sort's order. */
  order?: 'ascending' | 'descending'; // default 'ascending'
  /** 'buffer': a value of valueBytes a key moves with it; 'index': each key's index in
   * the whole input (not within its segment). */
  payload?: 'none' | 'buffer' | 'index';
  /** 'buffer': 4 (the default) or 8; otherwise 0. */
  valueBytes?: 0 | 4 | 8;
  /** 'offsets' (CSR: nSegments + 1 u32, the default) or 'begin-end' (two arrays of
   * nSegments u32; gaps between segments allowed). */
  segments?: 'offsets' | 'begin-end';
  /** 'auto' (default): a workgroup sorts a segment of up to tileSize() keys, the radix
   * sorts longer ones; 'small': no radix sorts (less memory), a longer segment sets the
   * status to TOO_LARGE; 'large': every segment by the radix sorts. */
  path?: 'auto' | 'small' | 'large';
  /** The most segments an encode takes (default 1). */
  segmentCapacity?: number;
}
export interface AllocPlanOptions extends PlanOptionsBase {
  /** 'scan' (default): blocks in request order; 'atomic': one fetch-add per request. */
  algorithm?: 'auto' | 'scan' | 'atomic';
}

/** Arguments of an encode: the caller's GPUBuffers (STORAGE usage; offsets in bytes,
 * multiples of minStorageBufferOffsetAlignment) and n. */
interface EncodeArgsBase {
  n: number;
  /** Optional: the element count from the GPU (one u32 at nOffset, a multiple of 4;
   * STORAGE usage), read when the passes run, so that a count another pass wrote (a
   * select's count, a reduce by key's numRuns) needs no read-back. The primitive then
   * works on min(that count, n) elements and writes nothing past them; n is the bound
   * that sizes every check. */
  nBuffer?: GPUBuffer; nOffset?: number;
  timestampWrites?: TimestampWrites;
}
export interface ScanArgs extends EncodeArgsBase {
  input: GPUBuffer; inputOffset?: number;
  /** May be input itself at the same offset (in place). */
  output: GPUBuffer; outputOffset?: number;
}
export interface ReduceArgs extends EncodeArgsBase {
  input: GPUBuffer; inputOffset?: number;
  /** 4 bytes: the value (count plans: a u32), then for arg ops the u32 index. */
  output: GPUBuffer; outputOffset?: number;
  /** Count plans: this encode's operands (the plan's kind). */
  predicate?: Predicate;
}
export interface SelectArgs extends EncodeArgsBase {
  input: GPUBuffer; inputOffset?: number;
  /** 'flagged': one byte per element, the range rounded up to whole 4-byte words. */
  flags?: GPUBuffer; flagsOffset?: number;
  payloadIn?: GPUBuffer; payloadInOffset?: number;
  /** Room for n elements. */
  output: GPUBuffer; outputOffset?: number;
  /** Payload plans and run-length (the run lengths): room for n u32. */
  payloadOut?: GPUBuffer; payloadOutOffset?: number;
  /** The number selected, a u32. */
  count: GPUBuffer; countOffset?: number;
  /** 'if' plans: this encode's operands (the plan's kind). */
  predicate?: Predicate;
}
export interface HistogramArgs extends EncodeArgsBase {
  input: GPUBuffer; inputOffset?: number;
  /** bins u32 counts, zeroed by the encode. */
  output: GPUBuffer; outputOffset?: number;
}
export interface SortArgs extends EncodeArgsBase {
  /** n keys; left as they are unless keysOut is keysIn. */
  keysIn: GPUBuffer; keysInOffset?: number;
  /** Room for n keys; keysIn itself at the same offset sorts in place. */
  keysOut: GPUBuffer; keysOutOffset?: number;
  /** payload 'buffer': n values. */
  valuesIn?: GPUBuffer; valuesInOffset?: number;
  /** payload 'buffer': room for n values (may be valuesIn); 'index': n u32 input indices. */
  valuesOut?: GPUBuffer; valuesOutOffset?: number;
}
export interface TopkArgs extends Omit<EncodeArgsBase, 'nBuffer' | 'nOffset'> {
  /** Keys a row (1 .. capacity). */
  n: number;
  /** 1 .. rowCapacity. */
  rows: number;
  /** 1 .. min(n, kCapacity). */
  k: number;
  /** rows x n keys, row r's at r * n. */
  keysIn: GPUBuffer; keysInOffset?: number;
  /** Room for rows x k keys; a buffer of its own. */
  keysOut: GPUBuffer; keysOutOffset?: number;
  /** payload 'buffer': rows x n 4-byte values. */
  valuesIn?: GPUBuffer; valuesInOffset?: number;
  /** payload 'buffer' and 'index': room for rows x k. */
  valuesOut?: GPUBuffer; valuesOutOffset?: number;
}
/** The segments of the segmented primitives' encodes (the plan's `segments` form). */
interface SegmentsArgs extends EncodeArgsBase {
  /** segments 'offsets': nSegments + 1 u32. */
  offsets?: GPUBuffer; offsetsOffset?: number;
  /** segments 'begin-end': nSegments u32 each. */
  beginOffsets?: GPUBuffer; beginOffsetsOffset?: number;
  endOffsets?: GPUBuffer; endOffsetsOffset?: number;
  nSegments: number;
  /** Optional: the segment count from the GPU (one u32 at nSegmentsOffset), bounded by
   * nSegments, as nBuffer bounds n. */
  nSegmentsBuffer?: GPUBuffer; nSegmentsOffset?: number;
}
export interface SegmentedSortArgs extends SegmentsArgs {
  /** n keys. */
  keysIn: GPUBuffer; keysInOffset?: number;
  /** Room for n keys, a buffer of its own; places in no segment are not written. */
  keysOut: GPUBuffer; keysOutOffset?: number;
  /** payload 'buffer': n values. */
  valuesIn?: GPUBuffer; valuesInOffset?: number;
  /** payload 'buffer' and 'index': room for n values, a buffer of its own. */
  valuesOut?: GPUBuffer; valuesOutOffset?: number;
  /** Optional: one u32, 0 or the code of bad segments (SEGMENTS_UNORDERED,
   * SEGMENT_OUT_OF_RANGE; TOO_LARGE for a segment past the tile with path 'small'). */
  status?: GPUBuffer; statusOffset?: number;
}
export interface SegmentedReduceArgs extends SegmentsArgs {
  /** n values. */
  input: GPUBuffer; inputOffset?: number;
  /** nSegments results of 4 bytes (arg ops: 8, the value's bits then the u32 index). */
  output: GPUBuffer; outputOffset?: number;
  /** Optional: one u32, 0 or the code of bad offsets (SEGMENTS_UNORDERED, SEGMENT_OUT_OF_RANGE). */
  status?: GPUBuffer; statusOffset?: number;
}
export interface ScanByKeyArgs extends EncodeArgsBase {
  /** heads 'keys': n keys of 4 bytes. */
  keys?: GPUBuffer; keysOffset?: number;
  /** heads 'flags': n bytes (the binding rounded up to 4). */
  flags?: GPUBuffer; flagsOffset?: number;
  input: GPUBuffer; inputOffset?: number;
  /** n values; another buffer than input, keys, flags and initBuffer. */
  output: GPUBuffer; outputOffset?: number;
  /** Optional carry-in that joins the first segment (to continue a scan by key on the
   * next chunk): one element in initBuffer at initOffset, read when the scan runs, or
   * initValue (a number of the plan's type; f16: its 16 bits). */
  initBuffer?: GPUBuffer; initOffset?: number;
  initValue?: number;
}
export interface SegmentedScanArgs extends SegmentsArgs {
  /** n values. */
  input: GPUBuffer; inputOffset?: number;
  /** n values (the identity in no segment); another buffer than the others. */
  output: GPUBuffer; outputOffset?: number;
  /** Optional: one u32, 0 or the code of bad offsets (SEGMENTS_UNORDERED, SEGMENT_OUT_OF_RANGE). */
  status?: GPUBuffer; statusOffset?: number;
}
export interface ReduceByKeyArgs extends EncodeArgsBase {
  keys: GPUBuffer; keysOffset?: number;
  input: GPUBuffer; inputOffset?: number;
  /** Up to n keys: the first key of each run. */
  uniqueKeys: GPUBuffer; uniqueKeysOffset?: number;
  /** Up to n values: each run's reduction. */
  aggregates: GPUBuffer; aggregatesOffset?: number;
  /** One u32: the number of runs. */
  numRuns: GPUBuffer; numRunsOffset?: number;
}
export interface AllocArgs extends EncodeArgsBase {
  sizes: GPUBuffer; sizesOffset?: number;
  offsets: GPUBuffer; offsetsOffset?: number;
  /** Two u32: the arena's top (kept across calls) and scratch. */
  state: GPUBuffer; stateOffset?: number;
  arenaSize: number;
}

/** A primitive compiled for its options: encode it any number of times, then destroy it. */
export declare class Plan<Args, Options> {
  /** Records the plan's passes into `encoder`; submit it when you like. Throws
   * WgscanError for bad arguments; WebGPU errors arrive through Wgscan.errors(). */
  encode(encoder: GPUCommandEncoder, args: Args): void;
  /** Frees the plan's pipelines and scratch; a second call does nothing. */
  destroy(): void;
  readonly destroyed: boolean;
}
export declare class ScanPlan extends Plan<ScanArgs, ScanPlanOptions> {
  /** What an encode of n elements uses. */
  algorithmFor(n: number, inPlace?: boolean): 'single-pass' | 'multilevel';
  /** Elements per tile of an algorithm. */
  tileSize(algorithm: 'single-pass' | 'multilevel'): number;
}
export declare class ReducePlan extends Plan<ReduceArgs, ReducePlanOptions | CountPlanOptions> {}
export declare class SelectPlan extends Plan<SelectArgs, SelectPlanOptions> {}
export declare class HistogramPlan extends Plan<HistogramArgs, HistogramPlanOptions> {}
export declare class SortPlan extends Plan<SortArgs, SortPlanOptions> {}
export declare class TopkPlan extends Plan<TopkArgs, TopkPlanOptions> {}
export declare class SegmentedSortPlan extends Plan<SegmentedSortArgs, SegmentedSortPlanOptions> {
  /** The longest segment one workgroup sorts. */
  tileSize(): number;
}
export declare class SegmentedReducePlan extends Plan<SegmentedReduceArgs, SegmentedReducePlanOptions> {}
export declare class ScanByKeyPlan extends Plan<ScanByKeyArgs, ScanByKeyPlanOptions> {}
export declare class SegmentedScanPlan extends Plan<SegmentedScanArgs, SegmentedScanPlanOptions> {}
export declare class ReduceByKeyPlan extends Plan<ReduceByKeyArgs, ReduceByKeyPlanOptions> {}
export declare class AllocPlan extends Plan<AllocArgs, AllocPlanOptions> {}

// ---- host-array results ----------------------------------------------------------------
interface Timed {
  /** GPU time of the passes (timestamp queries), or null without timestamp-query. */
  gpuMs: number | null;
  /** Upload, run and download. */
  totalMs: number;
}
export interface ScanResult<A extends ElementArray> extends Timed {
  output: A;
  algorithm: 'single-pass' | 'multilevel';
}
export interface ReduceResult extends Timed {
  value: number;
  /** argmin/argmax: the first index of the extreme (NO_INDEX for no elements). */
  index: number | undefined;
}
/** reduce() with an operator: the element, an array of the input's kind. */
export interface OperatorReduceResult<A extends Select32> extends Timed {
  value: A;
  index: undefined;
}
export interface CountResult extends Timed { count: number; }
export interface SelectResult<A extends ElementArray, P extends ArrayBufferView = Uint32Array> extends Timed {
  /** The selected elements (all n for a partition, the selected first). */
  output: A;
  /** Payload plans: the payload of each output element; run-length: the run lengths. */
  payload?: P;
  /** How many were selected (runs for run-length). */
  count: number;
}
export interface RunLengthResult<A extends ElementArray> extends Timed {
  values: A;
  lengths: Uint32Array;
  count: number;
}
export interface HistogramResult extends Timed { counts: Uint32Array; }
export interface ScanByKeyResult<A extends ElementArray> extends Timed { output: A; }
export interface SegmentedScanResult<A extends ElementArray> extends Timed { output: A; }
export interface ReduceByKeyResult<K extends Uint32Array | Int32Array, A extends ElementArray> extends Timed {
  /** The first key of each run, in the keys' array type. */
  uniqueKeys: K;
  /** Each run's reduction. */
  aggregates: A;
  /** argmin/argmax: each run's index of its extreme value into the values, else undefined. */
  index: Uint32Array | undefined;
  numRuns: number;
}
export interface SegmentedReduceResult<A extends Select32> extends Timed {
  /** A value a segment; an empty segment gives the operator's identity. */
  output: A;
  /** argmin/argmax: each segment's index into the values (NO_INDEX when empty), else undefined. */
  index: Uint32Array | undefined;
}
export interface SortResult<K extends SortKeyArray, V extends ArrayBufferView | undefined = undefined> extends Timed {
  /** The keys in order, in the input's array type. */
  keys: K;
  /** The values in the keys' order (values 'index': the input indices), else undefined. */
  values: V;
}
export interface TopkResult<K extends TopkKeyArray, V extends ArrayBufferView | undefined = undefined> extends Timed {
  /** rows x k keys, row r's best (or, 'input-order', in input order) at r * k, in the input's array type. */
  keys: K;
  /** Their values (values 'index': their indices within the row), else undefined. */
  values: V;
}
export interface AllocateResult extends Timed {
  /** Each block's start, or ALLOC_FAILED. */
  offsets: Uint32Array;
  /** The arena's new top. */
  top: number;
}

export type HostScanOptions = Omit<ScanPlanOptions, 'capacity'>;
export type HostReduceOptions = Omit<ReducePlanOptions, 'capacity'>;
export type HostCountOptions = Omit<CountPlanOptions, 'capacity'>;
export interface HostSelectOptions extends Omit<SelectPlanOptions, 'capacity' | 'payload'> {
  /** One byte per element (mode 'flagged', the default when given). */
  flags?: Uint8Array;
  /** 'index', or n 4-byte values that move along with the elements. */
  payload?: 'index' | Uint32Array | Int32Array | Float32Array;
}
export type HostHistogramOptions = Omit<HistogramPlanOptions, 'capacity'>;
export interface HostScanByKeyOptions extends Omit<ScanByKeyPlanOptions, 'capacity' | 'heads' | 'keyType'> {
  /** n keys (the key type from the array's), or flags: n bytes. */
  keys?: Uint32Array | Int32Array;
  flags?: Uint8Array;
  /** A carry-in that joins the first segment (f16: its 16 bits). */
  initValue?: number;
}
export interface HostSegmentedScanOptions extends Omit<SegmentedScanPlanOptions, 'capacity' | 'segments' | 'segmentCapacity'> {
  /** CSR: nSegments + 1 offsets (or give begin and end). */
  offsets?: Uint32Array;
  begin?: Uint32Array;
  end?: Uint32Array;
}
export type HostReduceByKeyOptions = Omit<ReduceByKeyPlanOptions, 'capacity' | 'keyType'>;
export interface HostSegmentedReduceOptions extends Omit<SegmentedReducePlanOptions, 'capacity' | 'segments' | 'segmentCapacity'> {
  /** CSR: nSegments + 1 offsets (or give begin and end). */
  offsets?: Uint32Array;
  begin?: Uint32Array;
  end?: Uint32Array;
}
export interface HostSortOptions extends Omit<SortPlanOptions, 'capacity' | 'payload' | 'valueBytes'> {
  /** Another key type of the keys' element size (e.g. 'f32' for a Uint32Array of float bits). */
  type?: SortKeyType;
}
export interface HostTopkOptions extends Omit<TopkPlanOptions, 'capacity' | 'payload' | 'kCapacity' | 'rowCapacity'> {
  /** 1 .. n (the keys of a row). */
  k: number;
  /** The keys are rows x n, one row after another (default 1). */
  rows?: number;
  /** Another 4-byte key type (e.g. 'f32' for a Uint32Array of float bits). */
  type?: 'u32' | 'i32' | 'f32';
}
export interface HostSegmentedSortOptions extends Omit<SegmentedSortPlanOptions, 'capacity' | 'payload' | 'valueBytes' | 'segments' | 'segmentCapacity'> {
  /** CSR: nSegments + 1 offsets (or give begin and end). */
  offsets?: Uint32Array;
  begin?: Uint32Array;
  end?: Uint32Array;
  /** Another key type of the keys' element size. */
  type?: SortKeyType;
}
export interface HostAllocateOptions {
  arenaSize: number;
  /** The arena's top before the call (default 0). */
  top?: number;
  algorithm?: AllocPlanOptions['algorithm'];
}
type Select32 = Uint32Array | Int32Array | Float32Array;
/** Top-k keys: 4 bytes. */
export type TopkKeyArray = Uint32Array | Int32Array | Float32Array;

/** A plan for prepare(): the primitive and its create*Plan options. */
export type PrepareSpec =
  | ({ primitive: 'scan' } & ScanPlanOptions)
  | ({ primitive: 'reduce' } & ReducePlanOptions)
  | ({ primitive: 'count' } & CountPlanOptions)
  | ({ primitive: 'select' } & SelectPlanOptions)
  | ({ primitive: 'histogram' } & HistogramPlanOptions)
  | ({ primitive: 'sort' } & SortPlanOptions)
  | ({ primitive: 'segmentedReduce' } & SegmentedReducePlanOptions)
  | ({ primitive: 'scanByKey' } & ScanByKeyPlanOptions)
  | ({ primitive: 'segmentedScan' } & SegmentedScanPlanOptions)
  | ({ primitive: 'reduceByKey' } & ReduceByKeyPlanOptions)
  | ({ primitive: 'alloc' } & AllocPlanOptions)
  | ({ primitive: 'topk' } & TopkPlanOptions)
  | ({ primitive: 'segmentedSort' } & SegmentedSortPlanOptions);

/** The library on one GPUDevice. */
export declare class Wgscan {
  /** Loads wgscan.wasm (once per URL) and opens the library on `device`. */
  static create(device: GPUDevice, options?: CreateOptions): Promise<Wgscan>;
  readonly device: GPUDevice;
  readonly info: AdapterInfo;
  /** The element types this device runs: f16 only with shader-f16. */
  readonly types: ElementType[];
  readonly destroyed: boolean;
  /** Resolves when the WebGPU error scopes of the calls so far have settled; rejects
   * with the first error they caught (GPU_VALIDATION, GPU_OUT_OF_MEMORY, GPU_INTERNAL)
   * or DEVICE_LOST. */
  errors(): Promise<void>;
  /** Compiles the pipelines of the plans `specs` describe without blocking (all at
   * once, createComputePipelineAsync); plans of those options created afterwards, the
   * host helpers' included, compile nothing. Resolves to the number compiled; rejects
   * with INVALID_ARGUMENT for a bad spec, GPU_INTERNAL for a failed compile. */
  prepare(specs: PrepareSpec[]): Promise<number>;
  /** Pipelines compiled so far: by plan creation (created) and by prepare(). */
  readonly pipelines: { created: number; prepared: number };
  /** Destroys the plans still alive and the library's own buffers; the device stays
   * yours. Later calls throw INVALID_ARGUMENT. */
  destroy(): void;

  createScanPlan(options?: ScanPlanOptions): ScanPlan & Readonly<Required<ScanPlanOptions>>;
  createReducePlan(options?: ReducePlanOptions): ReducePlan & Readonly<Required<ReducePlanOptions>>;
  createCountPlan(options?: CountPlanOptions): ReducePlan & Readonly<Required<CountPlanOptions>>;
  createSelectPlan(options?: SelectPlanOptions): SelectPlan & Readonly<Required<SelectPlanOptions>>;
  createHistogramPlan(options: HistogramPlanOptions): HistogramPlan & Readonly<Required<HistogramPlanOptions>>;
  /** Without subgroups the sort's tiles need more than WebGPU's default 16 KiB of
   * workgroup memory (TOO_LARGE): ask the device for the adapter's
   * maxComputeWorkgroupStorageSize. */
  createSortPlan(options?: SortPlanOptions): SortPlan & Readonly<Required<SortPlanOptions>>;
  createTopkPlan(options?: TopkPlanOptions): TopkPlan & Readonly<Required<TopkPlanOptions>>;
  /** Needs the adapter's workgroup memory as createSortPlan does. */
  createSegmentedSortPlan(options?: SegmentedSortPlanOptions): SegmentedSortPlan & Readonly<Required<SegmentedSortPlanOptions>>;
  createSegmentedReducePlan(options?: SegmentedReducePlanOptions): SegmentedReducePlan & Readonly<Required<SegmentedReducePlanOptions>>;
  createScanByKeyPlan(options?: ScanByKeyPlanOptions): ScanByKeyPlan & Readonly<Required<ScanByKeyPlanOptions>>;
  createSegmentedScanPlan(options?: SegmentedScanPlanOptions): SegmentedScanPlan & Readonly<Required<SegmentedScanPlanOptions>>;
  createReduceByKeyPlan(options?: ReduceByKeyPlanOptions): ReduceByKeyPlan & Readonly<Required<ReduceByKeyPlanOptions>>;
  createAllocPlan(options?: AllocPlanOptions): AllocPlan & Readonly<Required<AllocPlanOptions>>;

  // Host arrays in, results out: upload, run, download (the helpers keep their last
  // plans, so repeated calls compile nothing).
  scan<A extends ElementArray>(input: A, options?: HostScanOptions): Promise<ScanResult<A>>;
  /** With options.operator: input holds whole elements of the operator (any kind of array). */
  reduce<A extends Select32>(input: A, options: HostReduceOptions & { operator: OperatorDescription }): Promise<OperatorReduceResult<A>>;
  reduce(input: Select32, options?: HostReduceOptions): Promise<ReduceResult>;
  count(input: Select32, options?: HostCountOptions): Promise<CountResult>;
  select<A extends Select32>(input: A, options: HostSelectOptions): Promise<SelectResult<A>>;
  partition<A extends Select32>(input: A, options: HostSelectOptions): Promise<SelectResult<A>>;
  unique<A extends Select32>(input: A, options?: Omit<HostSelectOptions, 'mode' | 'partition'>): Promise<SelectResult<A>>;
  runLengthEncode<A extends Select32>(input: A, options?: Omit<HostSelectOptions, 'mode' | 'partition' | 'payload'>): Promise<RunLengthResult<A>>;
  histogram(input: Select32, options: HostHistogramOptions): Promise<HistogramResult>;
  /** A stable sort of typed-array keys; values: 'index' for the input indices, or n values
   * (4 or 8 bytes each) that move with their keys. */
  sort<K extends SortKeyArray>(keys: K, options?: HostSortOptions & { values?: undefined }): Promise<SortResult<K>>;
  sort<K extends SortKeyArray>(keys: K, options: HostSortOptions & { values: 'index' }): Promise<SortResult<K, Uint32Array>>;
  sort<K extends SortKeyArray, V extends SortValueArray>(keys: K, options: HostSortOptions & { values: V }): Promise<SortResult<K, V>>;
  sort<K extends SortKeyArray>(keys: K, options?: HostSortOptions & { values?: 'index' | SortValueArray }): Promise<SortResult<K, SortValueArray | undefined>>;
  /** The k largest (or smallest) keys of each row, ties to the lower index; values:
   * 'index' for the indices within the row, or rows x n 4-byte values that move along. */
  topk<K extends TopkKeyArray>(keys: K, options: HostTopkOptions & { values?: undefined }): Promise<TopkResult<K>>;
  topk<K extends TopkKeyArray>(keys: K, options: HostTopkOptions & { values: 'index' }): Promise<TopkResult<K, Uint32Array>>;
  topk<K extends TopkKeyArray, V extends Select32>(keys: K, options: HostTopkOptions & { values: V }): Promise<TopkResult<K, V>>;
  /** A stable sort within each segment; keys and values in no segment stay as they were.
   * values as sort's ('index': the index in the whole input). Bad offsets throw the GPU's code. */
  segmentedSort<K extends SortKeyArray>(keys: K, options: HostSegmentedSortOptions & { values?: undefined }): Promise<SortResult<K>>;
  segmentedSort<K extends SortKeyArray>(keys: K, options: HostSegmentedSortOptions & { values: 'index' }): Promise<SortResult<K, Uint32Array>>;
  segmentedSort<K extends SortKeyArray, V extends SortValueArray>(keys: K, options: HostSegmentedSortOptions & { values: V }): Promise<SortResult<K, V>>;
  /** One reduction per segment; offsets out of order or past n throw the GPU's code. */
  segmentedReduce<A extends Select32>(input: A, options: HostSegmentedReduceOptions): Promise<SegmentedReduceResult<A>>;
  /** A scan that starts again at every segment (runs of equal keys, or head flags). */
  scanByKey<A extends ElementArray>(input: A, options: HostScanByKeyOptions): Promise<ScanByKeyResult<A>>;
  /** A scan that starts again at every segment of offsets; the identity in no segment;
   * offsets out of order or past n throw the GPU's code. */
  segmentedScan<A extends ElementArray>(input: A, options: HostSegmentedScanOptions): Promise<SegmentedScanResult<A>>;
  /** One reduction per run of equal keys. */
  reduceByKey<K extends Uint32Array | Int32Array, A extends ElementArray>(keys: K, values: A, options?: HostReduceByKeyOptions): Promise<ReduceByKeyResult<K, A>>;
  allocate(sizes: Uint32Array, options: HostAllocateOptions): Promise<AllocateResult>;
}
