// Times ONNX models with a plain ONNX Runtime session (CPU execution provider, EXTENDED
// optimisation, sequential, no profiling), outside Cleave: the independent reference that
// calibrated predictors are checked against (docs/predictors.md).
//   node scripts/time-onnxruntime.mjs [--threads N] [--runs R] [--warmups W] [--modules DIR]
//        [--prefill N | --decode L] MODEL.onnx...
// One JSON line per model: {"model", "threads", "input_shape", "runs_ms", "median_ms"}, and
// "step" ("prefill=N", "decode=L") for a decoder.
// Inputs: random floats and zero integers at the model's fixed dims, 1 for a symbolic one. With
// --prefill N (N new tokens, nothing cached) or --decode L (one new token after L cached), the
// model is a language-model decoder and its inputs are made from the names Hugging Face Optimum
// and ONNX Runtime GenAI give them: input_ids [1, new], attention_mask of ones [1, cached + new],
// position_ids counting from the cached length, past_key_values.* [1, kv heads, cached, head
// size] at the heads and size the model declares, GroupQueryAttention's seqlens_k (cached + new
// - 1) and total_sequence_length; another input is an error. A decoder is timed in a process
// whose glibc keeps the memory freed for the next step (MALLOC_MMAP_THRESHOLD_ 32 MiB,
// MALLOC_TRIM_THRESHOLD_ 1 GiB; the script starts itself again so): by default glibc maps each
// block above its threshold afresh and returns what is freed at the top of its heap, and the
// megabytes of keys and values a step carries in and out then cost page faults every step, 2 to
// 3 ms of a 2 ms step, in some processes and not in others. A decoder's runtime keeps its buffers
// from step to step. A decoder warms up at least until its outputs have totalled 128 MB, and the
// runs are timed back to back. Cleave's ort profiler measures decoders under the same settings.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const threads = Number(option('--threads', '1'));
const runs = Number(option('--runs', '20'));
const warmups = Number(option('--warmups', '3'));
const prefill = option('--prefill', null);
const decode = option('--decode', null);
if (prefill !== null && decode !== null) {
  console.error('time-onnxruntime.mjs: --prefill and --decode exclude each other');
  process.exit(2);
}
if ((prefill !== null || decode !== null) &&
    process.env.MALLOC_TRIM_THRESHOLD_ !== '1073741824') {
  const again = spawnSync(process.execPath, process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '33554432',
      MALLOC_TRIM_THRESHOLD_: '1073741824' },
  });
  process.exit(again.status ?? 1);
}
const modules = option('--modules',
  join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'onnxruntime-node'));
if (args.length === 0) {
  console.error('usage: time-onnxruntime.mjs [--threads N] [--runs R] [--warmups W] MODEL.onnx...');
  process.exit(2);
}
const ort = createRequire(join(modules, 'node_modules', 'noop.js'))('onnxruntime-node');

// A decoder's inputs at the step --prefill or --decode asks for (batch 1).
function decoderFeeds(session, file) {
  const fresh = prefill !== null ? Number(prefill) : 1;
  const past = prefill !== null ? 0 : Number(decode);
  const total = past + fresh;
  const tensor = (type, dims, value) => {
    const count = dims.reduce((a, b) => a * b, 1);
    const arrays = { int64: BigInt64Array, int32: Int32Array, float32: Float32Array };
    if (!arrays[type]) throw new Error(`${file}: element type ${type} is not supported`);
    const data = new arrays[type](count);
    for (let i = 0; i < count; ++i) data[i] = type === 'int64' ? BigInt(value(i)) : value(i);
    return new ort.Tensor(type, data, dims);
  };
  const feeds = {};
  for (const meta of session.inputMetadata) {
    const { name, type } = meta;
    if (name === 'input_ids') feeds[name] = tensor(type, [1, fresh], (i) => (i * 7919) % 1000);
    else if (name === 'attention_mask') feeds[name] = tensor(type, [1, total], () => 1);
    else if (name === 'position_ids') feeds[name] = tensor(type, [1, fresh], (i) => past + i);
    else if (name === 'seqlens_k') feeds[name] = tensor(type, [1], () => total - 1);
    else if (name === 'total_sequence_length') feeds[name] = tensor(type, [], () => total);
    else if (name.startsWith('past_key_values.')) {
      const dims = meta.shape.map((d, axis) =>
        typeof d === 'number' && d > 0 ? d : axis === 0 ? 1 : past);
      feeds[name] = tensor(type, dims, () => Math.random() - 0.5);
    } else {
      console.error(`${file}: input ${name} is not one a decoder export has`);
      process.exit(2);
    }
  }
  return feeds;
}

for (const file of args) {
  const session = await ort.InferenceSession.create(file, {
    graphOptimizationLevel: 'extended',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  });
  const feeds = {};
  let shape = null;
  if (prefill !== null || decode !== null) {
    Object.assign(feeds, decoderFeeds(session, file));
    shape = feeds.input_ids.dims;
  }
  for (const name of session.inputNames) {
    if (feeds[name]) continue;
    const meta = session.inputMetadata.find((m) => m.name === name);
    const dims = meta.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    shape ??= dims;
    const count = dims.reduce((a, b) => a * b, 1);
    const type = meta.type;
    const data = type === 'int64' ? new BigInt64Array(count)
      : type === 'int32' ? new Int32Array(count)
      : Float32Array.from({ length: count }, () => Math.random());
    feeds[name] = new ort.Tensor(type, data, dims);
  }
  // A decoder warms up until its outputs have totalled 128 MB (for at most 10 s): onnxruntime-node
  // copies each output into a new JavaScript array, and until the garbage collector has first
  // freed some, every copy faults in fresh memory (a 1 ms decode step ran 0.5 ms slower for its
  // first 16-31 runs). Cleave's ort profiler warms decoders up alike.
  const warmBytes = prefill !== null || decode !== null ? 128e6 : 0;
  const warmUntil = performance.now() + 10000;
  for (let i = 0, bytes = 0; i < warmups || (bytes < warmBytes && performance.now() < warmUntil);
    ++i) {
    const outputs = await session.run(feeds);
    for (const name of Object.keys(outputs)) bytes += outputs[name].data.byteLength;
  }
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const start = performance.now();
    await session.run(feeds);
    times.push(performance.now() - start);
  }
  await session.release();
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(JSON.stringify({ model: basename(file, '.onnx'), threads, input_shape: shape,
    ...(prefill !== null ? { step: `prefill=${prefill}` } : {}),
    ...(decode !== null ? { step: `decode=${decode}` } : {}),
    runs_ms: times.map((t) => Math.round(t * 1000) / 1000), median_ms: median }));
}
