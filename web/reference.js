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
