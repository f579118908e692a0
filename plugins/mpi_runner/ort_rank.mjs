// One rank's ONNX Runtime session for Cleave's MPI partition runner, driven over stdin and stdout
// in frames: a JSON line, then the raw bytes it announces. The rank moves tensors between MPI and
// this process; the session stays loaded (and a decoder's caches stay here) between runs.
// argv[2] is a JSON object: {"modules": folder holding node_modules/onnxruntime-node, "model",
// "threads"}. The session runs at ONNX Runtime's EXTENDED optimisation level, sequentially, with
// `threads` intra-op threads, as the ort profiler measures (ort_session.mjs).
//   start -> {"ready": true, "version", "inputs": [names], "outputs": [names]} or {"error"}
//   {"run": [{"name", "dtype", "dims", "bytes"}], "outputs": [names]} + each input's bytes in
//     order -> {"ms": ONNX Runtime's time, "outputs": [{"name", "dtype", "dims", "bytes"}]} + each
//     output's bytes in order, or {"error"}
//   A run may add "sequence" (a number) and "keep": [[output, input], ...]: those outputs are
//   fetched and kept here as that sequence's inputs of those names, fed to its next run unless the
//   run gives them (a decoder's key/value caches stay in this process between steps). And
//   "argmax": an output's name, given back as the index of the largest value in its last row, an
//   int64 [1] (a decoder's next token, without moving its logits); "lastRow": an output's name,
//   given back as its last row alone. And "warm": true, the run made untimed first as
//   ort_session.mjs warms up: 3 times, then until the outputs have totalled 128 MB, for at most
//   10 s (a prefill's first runs here took 723, 339, 317, 320, 242 and 227 ms).
// The end of stdin ends the process.
import { createRequire } from 'node:module';
import { readFileSync, readSync, writevSync } from 'node:fs';
import { join } from 'node:path';

const config = JSON.parse(process.argv[2]);

// stdin and stdout are the rank's pipes, read and written with blocking system calls: this process
// does nothing else while it waits, and a blocking read wakes as soon as the rank writes (the
// stream machinery of process.stdin costs a hop a few tenths of a millisecond more).
// A JSON line and the buffers after it, in one system call where the pipe takes them all (one
// wake-up of the rank).
const answer = (object, buffers = []) => {
  let left = [Buffer.from(JSON.stringify(object) + '\n'), ...buffers].filter((b) => b.length);
  while (left.length) {
    let n = writevSync(1, left);
    while (left.length && n >= left[0].length) n -= left.shift().length;
    if (n > 0) left[0] = left[0].subarray(n);
  }
};

const chunk = Buffer.allocUnsafe(1 << 16);
let pending = Buffer.alloc(0);
// Reads what the rank wrote next into `into` at `offset`; 0 at the end of stdin.
const readSome = (into, offset, length) => readSync(0, into, offset, length, null);
const more = () => {
  const n = readSome(chunk, 0, chunk.length);
  if (n === 0) return false;
  const read = Buffer.from(chunk.subarray(0, n));
  pending = pending.length ? Buffer.concat([pending, read]) : read;
  return true;
};
const readLine = () => {
  for (;;) {
    const at = pending.indexOf(10);
    if (at >= 0) {
      const line = pending.subarray(0, at).toString('utf8');
      pending = pending.subarray(at + 1);
      return line;
    }
    if (!more()) return null;
  }
};
// `size` bytes into a fresh ArrayBuffer (aligned for any typed array): what was read ahead, then
// straight from the pipe into it.
const readBytes = (size) => {
  const out = new Uint8Array(new ArrayBuffer(size));
  let filled = Math.min(size, pending.length);
  out.set(pending.subarray(0, filled), 0);
  pending = pending.subarray(filled);
  while (filled < size) {
    const n = readSome(out, filled, size - filled);
    if (n === 0) throw new Error('stdin ended inside a tensor');
    filled += n;
  }
  return out.buffer;
};

const arrays = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int64: BigInt64Array,
  int32: Int32Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

// The index of the largest value in the last row of a float32 or float16 tensor.
const half = (h) => {
  const exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (exponent ? 2 ** (exponent - 15) * (1 + mantissa / 1024) : 2 ** -14 * (mantissa / 1024));
};
const argmax = (tensor) => {
  if (tensor.type !== 'float32' && tensor.type !== 'float16')
    throw new Error(`argmax of a ${tensor.type} tensor`);
  const data = tensor.data; // a getter: read once, not per element
  const row = tensor.dims[tensor.dims.length - 1], first = data.length - row;
  const values = tensor.type === 'float16' ? Float32Array.from(data.subarray(first), half) : data.subarray(first);
  let best = 0;
  for (let i = 1; i < row; ++i) if (values[i] > values[best]) best = i;
  return BigInt(best);
};

let ort, session, version;
const states = new Map(); // sequence -> {input name: tensor kept from its last run}
try {
  const require = createRequire(join(config.modules, 'node_modules', 'noop.js'));
  ort = require('onnxruntime-node');
  version = JSON.parse(
    readFileSync(join(config.modules, 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8'))
    .version;
  session = await ort.InferenceSession.create(config.model, {
    graphOptimizationLevel: 'extended',
    executionMode: 'sequential',
    intraOpNumThreads: config.threads,
    interOpNumThreads: 1,
  });
  answer({ ready: true, version, inputs: session.inputNames, outputs: session.outputNames });
} catch (e) {
  answer({ error: String(e && e.message ? e.message : e) });
  process.exit(1);
}

for (;;) {
  const line = readLine();
  if (line === null) break;
  let request;
  try {
    request = JSON.parse(line);
    const keep = request.keep ?? [];
    const feeds = { ...(states.get(request.sequence) ?? {}) };
    for (const input of request.run) {
      const buffer = readBytes(input.bytes);
      const type = arrays[input.dtype];
      if (!type) throw new Error(`${input.name}: element type ${input.dtype} is not carried`);
      feeds[input.name] = new ort.Tensor(input.dtype, new type(buffer), input.dims);
    }
    const names = request.outputs ?? session.outputNames;
    const fetches = [...new Set([...names, ...keep.map(([output]) => output)])];
    if (request.warm) {
      const until = performance.now() + 10000;
      for (let runs = 0, bytes = 0; runs < 3 || (bytes < 128e6 && performance.now() < until); ++runs) {
        const warmed = await session.run(feeds, fetches);
        for (const t of Object.values(warmed)) bytes += t.data.byteLength;
      }
    }
    const start = performance.now();
    const results = await session.run(feeds, fetches);
    const ms = performance.now() - start;
    if (request.sequence !== undefined)
      states.set(request.sequence, Object.fromEntries(keep.map(([output, input]) => [input, results[output]])));
    // "argmax": an output given as the index of the largest value of its last row, one int64 (a
    // decoder's next token instead of its logits).
    // "lastRow": an output given as its last row alone, [1, ..., 1, row] (a prefill's logits of
    // the last token, which picks the next).
    const given = (name) => {
      const t = results[name];
      if (name === request.argmax) return new ort.Tensor('int64', BigInt64Array.of(argmax(t)), [1]);
      if (name !== request.lastRow) return t;
      const row = t.dims[t.dims.length - 1], data = t.data;
      return new ort.Tensor(t.type, data.subarray(data.length - row), [...t.dims.slice(0, -1).map(() => 1), row]);
    };
    const tensors = names.map(given);
    answer(
      { ms, outputs: tensors.map((t, i) => ({ name: names[i], dtype: t.type, dims: t.dims, bytes: t.data.byteLength })) },
      tensors.map(({ data }) => Buffer.from(data.buffer, data.byteOffset, data.byteLength)),
    );
  } catch (e) {
    answer({ error: String(e && e.message ? e.message : e) });
    process.exit(1);
  }
}
