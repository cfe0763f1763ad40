// SPDX-License-Identifier: MIT
// reference.js: the JavaScript reference the pages check GPU results against, with the
// native library's rule (reference/reference.h): integers and float min/max exactly;
// float sums within 128 u S + u |exact| of a double-precision sum (u the unit roundoff,
// S the running sum of magnitudes).

export function f16ToF32(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

export function f32ToF16(v) {
  const f = new Float32Array([v]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >> 16) & 0x8000, exp = ((u >> 23) & 0xff) - 127 + 15, mant = u & 0x7fffff;
  if (((u >> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const full = mant | 0x800000, shift = 14 - exp;
    let h = full >> shift;
    const rem = full & ((1 << shift) - 1), half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return sign | h;
  }
  let h = (exp << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  return sign | h;
}

// Random test data suited to the operator (as the native tests do).
export function randomInput(type, op, n, seed = 1) {
  let s = seed >>> 0 || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  if (type === 'f32') return Float32Array.from({ length: n }, () => next() / 2 ** 31 - 1);
  if (type === 'f16') return Uint16Array.from({ length: n }, () => f32ToF16(((next() % 17) - 8) / 8));
  const a = type === 'i32' ? new Int32Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let v = next();
    if (op === 'and') v = (v | next() | next()) >>> 0;
    if (op === 'or') v = (v & next() & next()) >>> 0;
    a[i] = v;
  }
  return a;
}

function identity(type, op) {
  const float = type === 'f32' || type === 'f16';
  switch (op) {
    case 'min': return float ? Infinity : type === 'i32' ? 0x7fffffff : 0xffffffff;
    case 'max': return float ? -Infinity : type === 'i32' ? -0x80000000 : 0;
    case 'and': return type === 'i32' ? -1 : 0xffffffff;
    default: return 0;
  }
}

function combine(type, op, a, b) {
  switch (op) {
    case 'min': return Math.min(a, b);
    case 'max': return Math.max(a, b);
    case 'and': return type === 'i32' ? a & b : (a & b) >>> 0;
    case 'or': return type === 'i32' ? a | b : (a | b) >>> 0;
    case 'xor': return type === 'i32' ? a ^ b : (a ^ b) >>> 0;
    default:
      if (type === 'i32') return (a + b) | 0;
      if (type === 'u32') return (a + b) >>> 0;
      return a + b;
  }
}

// Returns { mismatches, firstBad, got, want }.
export function verifyScan(input, output, type, op, inclusive) {
  const n = input.length;
  const val = type === 'f16' ? (a, i) => f16ToF32(a[i]) : (a, i) => a[i];
  const res = { mismatches: 0, firstBad: -1, got: 0, want: 0 };
  const bad = (i, got, want) => {
    if (res.mismatches++ === 0) Object.assign(res, { firstBad: i, got, want });
  };
  if ((type === 'f32' || type === 'f16') && op === 'add') {
    const u = type === 'f16' ? 2 ** -11 : 2 ** -24;
    let exact = 0, mag = 0;
    for (let i = 0; i < n; i++) {
      const x = val(input, i);
      if (inclusive) { exact += x; mag += Math.abs(x); }
      const g = val(output, i), tol = 128 * u * mag + u * Math.abs(exact);
      if (!(Math.abs(g - exact) <= tol)) bad(i, g, exact);
      if (!inclusive) { exact += x; mag += Math.abs(x); }
    }
    return res;
  }
  let acc = identity(type, op);
  for (let i = 0; i < n; i++) {
    const x = val(input, i);
    const next = combine(type, op, acc, x);
    const want = inclusive ? next : acc, got = val(output, i);
    if (!(got === want)) bad(i, got, want);
    acc = next;
  }
  return res;
}

// ---- reduce, count, select, histogram, allocate (as reference/primitives.c) ----------

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const bitsOf = (type, v) => {
  if (type === 'f32') { f32[0] = v; return u32[0]; }
  return v >>> 0;
};

// A u32 that orders as the values (floats: by bits, -0 < +0; NaN lowest for min and
// highest for max, so that it wins).
function orderKey(type, forMax, v) {
  const b = bitsOf(type, v);
  if (type === 'i32') return (b ^ 0x80000000) >>> 0;
  if (type !== 'f32') return b;
  if ((b & 0x7FFFFFFF) > 0x7F800000) return forMax ? 0xFFFFFFFF : 0;
  return (b & 0x80000000 ? ~b : b | 0x80000000) >>> 0;
}

// The reduction of `input` as wgscan defines it: { value, index, tolerance } (index
// for arg ops, else undefined; tolerance for f32 sums, else 0: exact).
export function referenceReduce(input, type, op) {
  const n = input.length;
  const arg = op === 'argmin' || op === 'argmax';
  const forMax = op === 'max' || op === 'argmax';
  if (op === 'add' && type === 'f32') {
    let exact = 0, abs = 0;
    for (const x of input) { exact += x; abs += Math.abs(x); }
    return { value: exact, tolerance: (n / 1024 + 64) * 2 ** -24 * abs + 2 * n * 2 ** -126 };
  }
  let value = identity(type, op === 'argmin' ? 'min' : op === 'argmax' ? 'max' : op), index = 0xFFFFFFFF;
  if (type === 'f32' && (op === 'argmin' || op === 'argmax')) value = forMax ? -Infinity : Infinity;
  let best = orderKey(type, forMax, value);
  for (let i = 0; i < n; i++) {
    const x = input[i];
    if (op === 'min' || op === 'max' || arg) {
      const k = orderKey(type, forMax, x);
      if ((forMax ? k > best : k < best) || (k === best && index === 0xFFFFFFFF)) { best = k; value = x; index = i; }
    } else {
      value = combine(type, op, value, x);
    }
  }
  return { value, index: arg ? index : undefined, tolerance: 0 };
}

// The segmented reduce of wgscan.h: segment s is input[begin[s] .. end[s]); each result
// is referenceReduce's of the segment ({ value, index, tolerance }), the index counted
// in the whole input (0xFFFFFFFF for an empty segment).
export function referenceSegmentedReduce(input, type, op, begin, end) {
  const out = [];
  for (let s = 0; s < begin.length; s++) {
    const r = referenceReduce(input.subarray(begin[s], end[s]), type, op);
    if (r.index !== undefined && r.index !== 0xFFFFFFFF) r.index += begin[s];
    out.push(r);
  }
  return out;
}

// Whether value v meets the predicate { kind, a, b } (f32 operands rounded to f32).
export function referencePredicate(type, p, v) {
  const r = type === 'f32' ? Math.fround : (x) => x;
  const a = r(p.a ?? 0), b = r(p.b ?? 0);
  switch (p.kind ?? 'nonzero') {
    case 'equal': return v === a;
    case 'not-equal': return v !== a;
    case 'less': return v < a;
    case 'greater': return v > a;
    case 'in-range': return v >= a && v < b;
    default: return v !== 0;
  }
}

export function referenceCount(input, type, predicate) {
  let c = 0;
  for (const v of input) c += referencePredicate(type, predicate, v) ? 1 : 0;
  return c;
}

// Select and its relatives: { output, payload, count } with the host helper's shapes.
export function referenceSelect(input, type, { mode, flags, predicate, partition = false, payload } = {}) {
  const n = input.length;
  const selected = (i) => {
    if (mode === 'unique' || mode === 'run-length') return i === 0 || input[i] !== input[i - 1];
    if (mode === 'if') return referencePredicate(type, predicate, input[i]);
    return flags[i] !== 0;
  };
  const out = [], pay = [];
  let count = 0;
  for (let pass = 0; pass < (partition ? 2 : 1); pass++) {
    for (let i = 0; i < n; i++) {
      if (selected(i) !== (pass === 0)) continue;
      out.push(input[i]);
      pay.push(payload === 'index' || mode === 'run-length' ? i : payload ? payload[i] : 0);
    }
    if (pass === 0) count = out.length;
  }
  if (mode === 'run-length') for (let j = 0; j < count; j++) pay[j] = (j + 1 < count ? pay[j + 1] : n) - pay[j];
  return { output: out, payload: payload || mode === 'run-length' ? pay : undefined, count };
}

// The histogram rule of wgscan.h (integers exact; f32 in f32 arithmetic, subnormals
// as 0). Bounds the library refuses give null.
export function referenceHistogram(input, type, bins, lower, upper) {
  const h = new Uint32Array(bins);
  const fr = Math.fround;
  if (type === 'f32') {
    const lo = fr(lower), hi = fr(upper);
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(lo < hi)) return null;
    const lo0 = Math.abs(lo) < 2 ** -126 ? 0 : lo;
    const scale = fr(bins / (hi - lo));
    if (!Number.isFinite(fr(hi - lo)) || !Number.isFinite(fr(hi - lo0)) || !(scale >= 2 ** -126 && scale <= 2 ** 126)) return null;
    for (const x of input) {
      if (!(x >= lo && x < hi)) continue;
      const t = fr(fr((Math.abs(x) < 2 ** -126 ? 0 : x) - lo0) * scale);
      h[t >= bins ? bins - 1 : t > 0 ? Math.floor(t) : 0]++;
    }
    return h;
  }
  const tmin = type === 'i32' ? -(2 ** 31) : 0, tmax = type === 'i32' ? 2 ** 31 : 2 ** 32;
  if (!(Number.isInteger(lower) && Number.isInteger(upper) && lower >= tmin && upper <= tmax && lower < upper)) return null;
  const span = BigInt(upper - lower);
  for (const v of input) {
    if (!(v >= lower && v < upper)) continue;
    h[Number((BigInt(v - lower) * BigInt(bins)) / span)]++;
  }
  return h;
}

// The scan allocator: blocks in request order up to the first that does not fit.
export function referenceAllocate(sizes, arenaSize, top = 0) {
  const offsets = new Uint32Array(sizes.length);
  let full = false;
  for (let i = 0; i < sizes.length; i++) {
    full = full || sizes[i] > arenaSize - top;
    offsets[i] = full ? 0xFFFFFFFF : top;
    if (!full) top += sizes[i];
  }
  return { offsets, top };
}

// The atomic allocator's guarantees: the served blocks tile [top, newTop) and the
// failed ones are those that did not fit. Returns an error string or ''.
export function checkAtomicAllocation(sizes, arenaSize, top, offsets, newTop) {
  const blocks = [];
  for (let i = 0; i < sizes.length; i++) if (offsets[i] !== 0xFFFFFFFF) blocks.push([offsets[i], sizes[i]]);
  blocks.sort((x, y) => x[0] - y[0]);
  let at = top;
  for (const [o, s] of blocks) {
    if (o !== at) return `block at ${o}, expected ${at}`;
    at += s;
  }
  if (at !== newTop || newTop > arenaSize) return `top ${newTop}, blocks end at ${at}, arena ${arenaSize}`;
  return '';
}

// ---- sort (as reference/sort.c) ------------------------------------------------------

// The raw bits of a typed array: a Uint32Array or a BigUint64Array over the same memory
// (NaN payloads and -0 kept, which Float32Array element reads may not keep).
export function bitsOf32or64(a) {
  return a.BYTES_PER_ELEMENT === 8 ? new BigUint64Array(a.buffer, a.byteOffset, a.length)
    : new Uint32Array(a.buffer, a.byteOffset, a.length);
}

// A key's bits mapped to an unsigned number that orders as wgscan.h's "Sort" says:
// signed integers with the sign bit flipped; f32 negatives with every bit flipped,
// positives with the sign bit set. 32-bit keys give a Number, 64-bit keys a BigInt.
export function sortOrder(type, bits) {
  switch (type) {
    case 'u64': return bits;
    case 'i64': return bits ^ (1n << 63n);
    case 'i32': return (bits ^ 0x80000000) >>> 0;
    case 'f32': return (bits & 0x80000000 ? ~bits : bits | 0x80000000) >>> 0;
    default: return bits >>> 0;
  }
}

// The stable sort of `keys` (a typed array of the key type's size): { keys, values },
// both fresh arrays of the inputs' types. Only bits [beginBit, endBit) of the ordered
// key decide (0, 0: all); descending reverses that digit value, so equal keys keep their
// input order either way. values: 'index' (the input indices, a Uint32Array), a typed
// array that moves along, or undefined.
export function referenceSort(keys, type, { order = 'ascending', beginBit = 0, endBit = 0, values } = {}) {
  const n = keys.length;
  const wide = type === 'u64' || type === 'i64';
  const width = wide ? 64 : 32;
  const end = beginBit === 0 && endBit === 0 ? width : endBit;
  const bits = bitsOf32or64(keys);
  const digit = new Array(n);
  if (wide) {
    const w = BigInt(end - beginBit), b = BigInt(beginBit), mask = (1n << w) - 1n;
    for (let i = 0; i < n; i++) {
      const d = (sortOrder(type, bits[i]) >> b) & mask;
      digit[i] = order === 'descending' ? mask - d : d;
    }
  } else {
    const span = 2 ** (end - beginBit), below = 2 ** beginBit;
    for (let i = 0; i < n; i++) {
      const d = Math.floor(sortOrder(type, bits[i]) / below) % span;
      digit[i] = order === 'descending' ? span - 1 - d : d;
    }
  }
  const perm = Array.from({ length: n }, (_, i) => i);
  perm.sort((x, y) => (digit[x] < digit[y] ? -1 : digit[x] > digit[y] ? 1 : x - y)); // ties: input order
  const outKeys = new keys.constructor(n);
  const outBits = bitsOf32or64(outKeys);
  perm.forEach((from, i) => { outBits[i] = bits[from]; });
  let outValues;
  if (values === 'index') outValues = Uint32Array.from(perm);
  else if (values != null) {
    const vb = bitsOf32or64(values);
    outValues = new values.constructor(n);
    const ob = bitsOf32or64(outValues);
    perm.forEach((from, i) => { ob[i] = vb[from]; });
  }
  return { keys: outKeys, values: outValues };
}

// ---- top-k and segmented sort (as reference/topk.c and reference/segmented_sort.c) -----

// The top-k of each of `rows` rows of keys.length / rows keys: the first k of the row's
// stable sort (descending for 'largest', ascending for 'smallest'), so ties go to the
// lower index; 'input-order' puts those k in their input order. values: 'index' (the
// index within the row), a typed array of rows x n that moves along, or undefined.
// Returns { keys, values } of rows x k each, fresh arrays of the inputs' types.
export function referenceTopk(keys, type, { k, rows = 1, select = 'largest', output = 'sorted', values } = {}) {
  const n = keys.length / rows;
  const outKeys = new keys.constructor(rows * k), outBits = bitsOf32or64(outKeys), bits = bitsOf32or64(keys);
  const outValues = values === 'index' ? new Uint32Array(rows * k) : values ? new values.constructor(rows * k) : undefined;
  for (let r = 0; r < rows; r++) {
    const row = keys.subarray(r * n, (r + 1) * n);
    const order = select === 'largest' ? 'descending' : 'ascending';
    const at = Array.from(referenceSort(row, type, { order, values: 'index' }).values.subarray(0, k));
    if (output === 'input-order') at.sort((a, b) => a - b);
    at.forEach((i, j) => {
      outBits[r * k + j] = bits[r * n + i];
      if (values === 'index') outValues[r * k + j] = i;
      else if (values) bitsOf32or64(outValues)[r * k + j] = bitsOf32or64(values)[r * n + i];
    });
  }
  return { keys: outKeys, values: outValues };
}

// Each segment [begin[s], end[s]) of keys sorted stably (order as referenceSort's), the
// places in no segment as they were. values: 'index' (each key's index in the whole
// input; their own in no segment), a typed array that moves along, or undefined.
// Returns { keys, values }, fresh arrays of the inputs' types.
export function referenceSegmentedSort(keys, type, begin, end, { order = 'ascending', values } = {}) {
  const outKeys = keys.slice(), outBits = bitsOf32or64(outKeys);
  const outValues = values === 'index' ? Uint32Array.from(keys, (_, i) => i) : values ? values.slice(0, keys.length) : undefined;
  for (let s = 0; s < begin.length; s++) {
    const b = begin[s], e = end[s];
    const sorted = referenceSort(keys.subarray(b, e), type, { order, values: 'index' });
    outBits.set(bitsOf32or64(sorted.keys), b);
    sorted.values.forEach((i, j) => {
      if (values === 'index') outValues[b + j] = b + i;
      else if (values) bitsOf32or64(outValues)[b + j] = bitsOf32or64(values)[b + i];
    });
  }
  return { keys: outKeys, values: outValues };
}
