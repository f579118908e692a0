// Runs a model once with ONNX Runtime (onnxruntime-node) and prints its outputs' dims as one JSON
// line, {"name": [dims...], ...}, or {"error": "..."}: the shapes a test compares with Cleave's.
// argv: the folder whose node_modules holds onnxruntime-node, the model, then the inputs as
// name=d1xd2x... (float32, filled with 0.5).
import { createRequire } from 'node:module';
import { join } from 'node:path';

try {
  const require = createRequire(join(process.argv[2], 'node_modules', 'noop.js'));
  const ort = require('onnxruntime-node');
  const session = await ort.InferenceSession.create(process.argv[3]);
  const feeds = {};
  for (const arg of process.argv.slice(4)) {
    const [name, text] = arg.split('=');
    const dims = text.split('x').map(Number);
    const count = dims.reduce((a, b) => a * b, 1);
    feeds[name] = new ort.Tensor('float32', new Float32Array(count).fill(0.5), dims);
  }
  const results = await session.run(feeds);
  const dims = {};
  for (const [name, tensor] of Object.entries(results)) dims[name] = tensor.dims.map(Number);
  process.stdout.write(JSON.stringify(dims) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e) }) + '\n');
  process.exit(1);
}
