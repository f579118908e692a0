// Times ONNX models with a plain ONNX Runtime session (CPU execution provider, EXTENDED
// optimisation, sequential, no profiling), outside Cleave: the independent reference that
// calibrated predictors are checked against (docs/predictors.md).
//   node scripts/time-onnxruntime.mjs [--threads N] [--runs R] [--warmups W] [--modules DIR] MODEL.onnx...
// One JSON line per model: {"model", "threads", "input_shape", "runs_ms", "median_ms"}.
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
const modules = option('--modules',
  join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'onnxruntime-node'));
if (args.length === 0) {
  console.error('usage: time-onnxruntime.mjs [--threads N] [--runs R] [--warmups W] MODEL.onnx...');
  process.exit(2);
}
const ort = createRequire(join(modules, 'node_modules', 'noop.js'))('onnxruntime-node');

for (const file of args) {
  const session = await ort.InferenceSession.create(file, {
    graphOptimizationLevel: 'extended',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  });
  const feeds = {};
  let shape = null;
  for (const name of session.inputNames) {
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
  for (let i = 0; i < warmups; ++i) await session.run(feeds);
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
    runs_ms: times.map((t) => Math.round(t * 1000) / 1000), median_ms: median }));
}
