// wgscan.js: the wgscan library in the browser. The same C code and WGSL kernels as the
// native library, compiled to WebAssembly (wgscan.wasm); this module is its WebGPU
// backend (the "wgpu" imports: WebGPU objects live in a handle table here) and the API
// for web developers.
//
//   import { Wgscan } from './wgscan.js';
//   const wg = await Wgscan.create(device);            // any GPUDevice the page has
//   const { output } = await wg.scan(new Uint32Array([3, 1, 4]), { kind: 'inclusive' });
//   const plan = wg.createScanPlan({ type: 'f32', op: 'max', capacity: n });
//   plan.encode(encoder, { input, output, n });        // records into your encoder
//   await wg.errors();                                 // WebGPU errors the calls raised
//
// Errors: every failure throws WgscanError with the native library's numbered code
// (err.code, err.codeName) and message.

const TYPES = { u32: 1, i32: 2, f32: 3, f16: 4 };
const OPS = { add: 1, min: 2, max: 3, and: 4, or: 5, xor: 6 };
const KINDS = { exclusive: 1, inclusive: 2 };
const ALGORITHMS = { auto: 0, multilevel: 1, 'single-pass': 2 };
const ALGORITHM_NAMES = ['auto', 'multilevel', 'single-pass'];
const ELEMENT_SIZE = { u32: 4, i32: 4, f32: 4, f16: 2 };
// The numbers of wgscan.h's result list that this module raises itself.
const GPU_VALIDATION = 15, GPU_OUT_OF_MEMORY = 16, GPU_INTERNAL = 17, INVALID_ARGUMENT = 1;

export class WgscanError extends Error {
  constructor(code, codeName, message) {
    super(`${codeName} (${code}): ${message}`);
    this.code = code;
    this.codeName = codeName;
  }
}

function typeOfArray(a) {
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Uint16Array) return 'f16'; // raw IEEE half bits
  return null;
}

function arrayFor(type, buffer, n) {
  switch (type) {
    case 'u32': return new Uint32Array(buffer, 0, n);
    case 'i32': return new Int32Array(buffer, 0, n);
    case 'f32': return new Float32Array(buffer, 0, n);
    default: return new Uint16Array(buffer, 0, n);
  }
}

function lookup(table, key, what) {
  if (!(key in table)) {
    throw new WgscanError(INVALID_ARGUMENT, 'WGS_ERROR_INVALID_ARGUMENT',
      `unknown ${what} '${key}' (${Object.keys(table).join(', ')})`);
  }
  return table[key];
}

export class Wgscan {
  // Loads wgscan.wasm and opens the library on `device`. Options: wasm (URL of
  // wgscan.wasm; default beside this module).
  static async create(device, options = {}) {
    const url = options.wasm ?? new URL('./wgscan.wasm', import.meta.url);
    const bytes = await (await fetch(url)).arrayBuffer();
    const wg = new Wgscan(device);
    await wg.#instantiate(bytes);
    const r = wg.#exports.wgs_web_open();
    wg.#check(r);
    return wg;
  }

  #device;
  #exports = null;
  #objects = [null]; // handle -> WebGPU object; 0 is "none"
  #free = [];
  #owned = new Set(); // handles of buffers the library created (destroyed on release)
  #pending = [];      // error-scope promises not yet awaited
  #lost = false;
  info;

  constructor(device) {
    this.#device = device;
    device.lost.then(() => { this.#lost = true; });
    const ai = device.adapterInfo ?? {};
    const l = device.limits;
    const f = device.features;
    const cpu = ai.isFallbackAdapter || /swiftshader/i.test(`${ai.architecture} ${ai.description}`);
    this.info = {
      vendor: ai.vendor ?? '', architecture: ai.architecture ?? '', device: ai.device ?? '',
      description: ai.description ?? '', backend: 'webgpu', adapterType: cpu ? 'cpu' : 'gpu',
      subgroupMinSize: ai.subgroupMinSize ?? 0, subgroupMaxSize: ai.subgroupMaxSize ?? 0,
      subgroups: f.has('subgroups'), timestampQuery: f.has('timestamp-query'), shaderF16: f.has('shader-f16'),
      maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    };
  }

  get device() { return this.#device; }

  // ---- handle table --------------------------------------------------------------
  #put(obj) {
    const h = this.#free.length ? this.#free.pop() : this.#objects.length;
    this.#objects[h] = obj;
    return h;
  }
  #get(h) { return this.#objects[h]; }
  #drop(h) {
    if (!h) return;
    if (this.#owned.has(h)) {
      this.#objects[h].destroy();
      this.#owned.delete(h);
    }
    this.#objects[h] = undefined;
    this.#free.push(h);
  }

  // A string in wasm memory: `len` bytes, or up to its NUL terminator.
  #string(ptr, len) {
    const buf = this.#exports.memory.buffer;
    const mem = new Uint8Array(buf, ptr, len ?? buf.byteLength - ptr);
    const end = len ?? mem.indexOf(0);
    return new TextDecoder().decode(mem.subarray(0, end < 0 ? mem.length : end));
  }

  #check(r) {
    if (r === 0) return;
    const e = this.#exports;
    throw new WgscanError(r, this.#string(e.wgs_web_result_name(r)), this.#string(e.wgs_web_last_error()));
  }

  async #instantiate(bytes) {
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
      pushScope: () => {
        dev.pushErrorScope('internal');
        dev.pushErrorScope('out-of-memory');
        dev.pushErrorScope('validation');
      },
      popScope: () => {
        const codes = [GPU_VALIDATION, GPU_OUT_OF_MEMORY, GPU_INTERNAL];
        for (const code of codes) {
          self.#pending.push(dev.popErrorScope().then((e) => (e ? { code, message: e.message } : null)));
        }
      },
      bufferCreate: (size, usage) => {
        const h = self.#put(dev.createBuffer({ size, usage, label: 'wgscan' }));
        self.#owned.add(h);
        return h;
      },
      release: (h) => self.#drop(h),
      bufferSize: (h) => self.#get(h).size,
      bufferUsage: (h) => self.#get(h).usage,
      queueWrite: (h, offset, ptr, size) => {
        dev.queue.writeBuffer(self.#get(h), offset, self.#exports.memory.buffer, ptr, size);
      },
      pipelineCreate: (wgsl, wgslLen, entry, entryLen) => {
        const module = dev.createShaderModule({ code: self.#string(wgsl, wgslLen) });
        return self.#put(dev.createComputePipeline({
          layout: 'auto', compute: { module, entryPoint: self.#string(entry, entryLen) },
        }));
      },
      bindGroupCreate: (pipeline, idsPtr, rangesPtr, count) => {
        const ids = new Uint32Array(self.#exports.memory.buffer, idsPtr, 2 * count);
        const ranges = new Float64Array(self.#exports.memory.buffer, rangesPtr, 2 * count);
        const entries = [];
        for (let i = 0; i < count; i++) {
          entries.push({ binding: ids[2 * i], resource: { buffer: self.#get(ids[2 * i + 1]), offset: ranges[2 * i], size: ranges[2 * i + 1] } });
        }
        return self.#put(dev.createBindGroup({ layout: self.#get(pipeline).getBindGroupLayout(0), entries }));
      },
      passBegin: (encoder, querySet, begin, end) => {
        const desc = { label: 'wgscan' };
        if (querySet) {
          desc.timestampWrites = { querySet: self.#get(querySet), beginningOfPassWriteIndex: begin, endOfPassWriteIndex: end };
        }
        return self.#put(self.#get(encoder).beginComputePass(desc));
      },
      passDispatch: (pass, pipeline, group, x, y) => {
        const p = self.#get(pass);
        p.setPipeline(self.#get(pipeline));
        p.setBindGroup(0, self.#get(group));
        p.dispatchWorkgroups(x, y, 1);
      },
      passEnd: (pass) => {
        self.#get(pass).end();
        self.#drop(pass);
      },
    };
    const module = await WebAssembly.compile(bytes);
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

  // Resolves when the WebGPU error scopes of all calls so far have settled; throws the
  // first error they caught (validation, out-of-memory, internal) as a WgscanError.
  async errors() {
    const pending = this.#pending;
    this.#pending = [];
    const caught = (await Promise.all(pending)).filter(Boolean);
    if (this.#lost) throw new WgscanError(18, 'WGS_ERROR_DEVICE_LOST', 'the GPUDevice was lost');
    if (caught.length) {
      const names = { [GPU_VALIDATION]: 'WGS_ERROR_GPU_VALIDATION', [GPU_OUT_OF_MEMORY]: 'WGS_ERROR_GPU_OUT_OF_MEMORY', [GPU_INTERNAL]: 'WGS_ERROR_GPU_INTERNAL' };
      throw new WgscanError(caught[0].code, names[caught[0].code], caught[0].message);
    }
  }

  // A plan for scans of up to `capacity` elements; see wgscan.h. Options: type (u32, i32,
  // f32, f16), op (add, min, max, and, or, xor), kind (exclusive, inclusive), algorithm
  // (auto, single-pass, multilevel), capacity, deterministic.
  createScanPlan(options = {}) {
    const type = options.type ?? 'u32';
    const r = this.#exports.wgs_web_plan_create(
      lookup(TYPES, type, 'type'), lookup(OPS, options.op ?? 'add', 'operator'),
      lookup(KINDS, options.kind ?? 'exclusive', 'kind'), lookup(ALGORITHMS, options.algorithm ?? 'auto', 'algorithm'),
      Math.max(1, options.capacity ?? 1), options.deterministic ? 1 : 0);
    this.#check(r);
    return new ScanPlan(this, this.#exports.wgs_web_plan_take(), type);
  }

  // Used by ScanPlan: runs a C call that takes WebGPU objects, through temporary handles.
  _withHandles(objects, fn) {
    const hs = objects.map((o) => (o ? this.#put(o) : 0));
    try {
      this.#check(fn(...hs));
    } finally {
      for (const h of hs) if (h) this.#drop(h);
    }
  }
  get _exports() { return this.#exports; }

  // Convenience: scans a typed array (Uint32Array, Int32Array, Float32Array, or
  // Uint16Array holding f16 bits) and returns { output, algorithm, gpuMs, uploadMs,
  // downloadMs }. gpuMs comes from timestamp queries when the device has them.
  async scan(input, options = {}) {
    const type = options.type ?? typeOfArray(input);
    if (!type) throw new WgscanError(INVALID_ARGUMENT, 'WGS_ERROR_INVALID_ARGUMENT', 'input must be a Uint32Array, Int32Array, Float32Array or Uint16Array (f16)');
    const n = input.length, bytes = n * ELEMENT_SIZE[type], padded = Math.max(4, Math.ceil(bytes / 4) * 4);
    const dev = this.#device;
    const plan = this.createScanPlan({ ...options, type, capacity: Math.max(1, n) });
    const U = GPUBufferUsage;
    const src = dev.createBuffer({ size: padded, usage: U.STORAGE | U.COPY_DST });
    const dst = dev.createBuffer({ size: padded, usage: U.STORAGE | U.COPY_SRC });
    const staging = dev.createBuffer({ size: padded, usage: U.MAP_READ | U.COPY_DST });
    const timed = this.info.timestampQuery;
    const qs = timed ? dev.createQuerySet({ type: 'timestamp', count: 2 }) : null;
    const resolved = timed ? dev.createBuffer({ size: 16, usage: U.QUERY_RESOLVE | U.COPY_SRC }) : null;
    const times = timed ? dev.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST }) : null;
    try {
      let t0 = performance.now();
      const data = new Uint8Array(padded);
      data.set(new Uint8Array(input.buffer, input.byteOffset, bytes));
      dev.queue.writeBuffer(src, 0, data);
      await dev.queue.onSubmittedWorkDone();
      const uploadMs = performance.now() - t0;
      const encoder = dev.createCommandEncoder();
      plan.encode(encoder, { input: src, output: dst, n, timestampWrites: qs ? { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } : undefined });
      encoder.copyBufferToBuffer(dst, 0, staging, 0, padded);
      if (qs) {
        encoder.resolveQuerySet(qs, 0, 2, resolved, 0);
        encoder.copyBufferToBuffer(resolved, 0, times, 0, 16);
      }
      dev.queue.submit([encoder.finish()]);
      await this.errors();
      await dev.queue.onSubmittedWorkDone();
      t0 = performance.now();
      await staging.mapAsync(GPUMapMode.READ);
      const output = arrayFor(type, staging.getMappedRange().slice(0), n);
      staging.unmap();
      const downloadMs = performance.now() - t0;
      let gpuMs = null;
      if (times) {
        await times.mapAsync(GPUMapMode.READ);
        const t = new BigUint64Array(times.getMappedRange());
        gpuMs = t[1] > t[0] ? Number(t[1] - t[0]) / 1e6 : 0;
        times.unmap();
      }
      return { output, algorithm: plan.algorithmFor(n, false), gpuMs, uploadMs, downloadMs };
    } finally {
      plan.destroy();
      for (const b of [src, dst, staging, resolved, times]) b?.destroy();
      qs?.destroy();
    }
  }
}

export class ScanPlan {
  #wg; #plan; type;
  constructor(wg, plan, type) {
    this.#wg = wg;
    this.#plan = plan;
    this.type = type;
  }

  // Records the scan into `encoder` (a GPUCommandEncoder) on the caller's GPUBuffers
  // (STORAGE usage; offsets in bytes, multiples of minStorageBufferOffsetAlignment).
  // Throws WgscanError for bad arguments; WebGPU errors arrive through wg.errors().
  encode(encoder, { input, inputOffset = 0, output, outputOffset = 0, n, timestampWrites } = {}) {
    if (!this.#plan) throw new WgscanError(INVALID_ARGUMENT, 'WGS_ERROR_INVALID_ARGUMENT', 'the plan was destroyed');
    const tw = timestampWrites;
    this.#wg._withHandles([encoder, input, output, tw?.querySet], (enc, inp, out, qs) =>
      this.#wg._exports.wgs_web_scan_encode(this.#plan, enc, inp, inputOffset, input === output ? inp : out,
        outputOffset, n, qs, tw?.beginningOfPassWriteIndex ?? 0, tw?.endOfPassWriteIndex ?? 0));
  }

  // 'single-pass' or 'multilevel': what an encode of n elements uses.
  algorithmFor(n, inPlace = false) {
    return ALGORITHM_NAMES[this.#wg._exports.wgs_web_plan_algorithm(this.#plan, n, inPlace ? 1 : 0)];
  }

  tileSize(algorithm) {
    return this.#wg._exports.wgs_web_plan_tile(this.#plan, lookup(ALGORITHMS, algorithm, 'algorithm'));
  }

  destroy() {
    if (this.#plan) this.#wg._exports.wgs_web_plan_destroy(this.#plan);
    this.#plan = 0;
  }
}
