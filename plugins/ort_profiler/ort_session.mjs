// Two ONNX Runtime sessions of one model for Cleave's ort profiler plugin, driven line by line
// over stdin and stdout: a plain one whose inferences are timed end to end as a user's would be,
// and one with ONNX Runtime's profiling on, whose trace gives the kernels (profiling adds time
// around every kernel, which end-to-end times must not carry). Never both at once: a session that
// has run keeps its intra-op threads spinning, which at 2 threads on 2 cores doubled the other
// session's times, so "start-profile" releases the plain session and creates the profiled one,
// which then warms up as the plain one did. argv[2] is a JSON object: {"modules": folder holding
// node_modules/onnxruntime-node, "model", "threads", "inputs": [{"name", "dims", "dtype", "fill",
// "value"}], "profile_prefix", "optimized", "warm_output_bytes"}, each input filled as
// core/graph/input_feeds.hpp says: "uniform" in [0, 1), "constant" (every element value), "ids"
// in [0, value), "positions" value, value + 1, ... along the last dim.
// Both run at ONNX Runtime's EXTENDED optimisation level, sequentially; the profiled one saves
// its optimised graph. Every answer is one JSON line:
//   start          -> {"ready": true, "version": "1.30.0"} or {"error": "..."}
//   "warm N"       -> {"runs", "output_bytes"}: untimed inferences of the current session (the
//                     plain one, or the profiled one once started), N and then more until their
//                     outputs have totalled config.warm_output_bytes (for at most 10 s)
//   "run N"        -> {"ms": [wall-clock time of each of N inferences of the plain session, run
//                     back to back as a loop of inferences runs them]}
//   "start-profile" -> {"ready": true}: the plain session released, the profiled one created
//   "profile"      -> {"ms": the same for one inference of the profiled session}; no "run" after
//   "end"          -> {"profile": the trace file}; then the process exits
// Why warm up by output bytes: onnxruntime-node copies every output into a new JavaScript array,
// which the garbage collector frees only now and then; until it first has, each copy lands in
// memory the C library has just taken from the system, and faults it in page by page. A decode
// step of a 2-layer decoder after 256 tokens (1.1 MB of keys and values out) took 1.0 ms for its
// first 16-31 inferences, 273 page faults each, and 0.5 ms after (ONNX Runtime's own time 0.55
// ms throughout; one thread, this machine).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const answer = (object) => process.stdout.write(JSON.stringify(object) + '\n');
const config = JSON.parse(process.argv[2]);

let ort, options, plain, session, feeds;
try {
  const require = createRequire(join(config.modules, 'node_modules', 'noop.js'));
  ort = require('onnxruntime-node');
  const version = JSON.parse(
    readFileSync(join(config.modules, 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8'))
    .version;
  options = {
    graphOptimizationLevel: 'extended',
    executionMode: 'sequential',
    intraOpNumThreads: config.threads,
    interOpNumThreads: 1,
  };
  plain = await ort.InferenceSession.create(config.model, options);
  // Inputs from fixed-seed generators, as core/graph/input_feeds.hpp decides them.
  let state = 1;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const element = {
    uniform: () => uniform(),
    constant: (input) => input.value,
    ids: (input) => Math.min(Math.floor(uniform() * input.value), input.value - 1),
    positions: (input, i) => input.value + (input.dims.length ? i % input.dims.at(-1) : 0),
  };
  feeds = {};
  for (const input of config.inputs) {
    const count = input.dims.reduce((a, b) => a * b, 1);
    const fill = element[input.fill];
    if (!fill) throw new Error(`input ${input.name}: unknown fill '${input.fill}'`);
    const types = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array };
    if (!types[input.dtype])
      throw new Error(`input ${input.name}: element type ${input.dtype} is not supported`);
    const data = new types[input.dtype](count);
    const wide = input.dtype === 'int64';
    for (let i = 0; i < count; ++i) {
      const v = fill(input, i);
      data[i] = wide ? BigInt(Math.trunc(v)) : v;
    }
    feeds[input.name] = new ort.Tensor(input.dtype, data, input.dims);
  }
  answer({ ready: true, version });
} catch (e) {
  answer({ error: String(e && e.message ? e.message : e) });
  process.exit(1);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  try {
    const [command, count] = line.split(' ');
    const n = Number(count);
    const current = session ?? plain;
    if (command === 'warm' && current && Number.isInteger(n) && n >= 0) {
      const until = performance.now() + 10000;
      let runs = 0, outputBytes = 0;
      while (runs < n || (outputBytes < (config.warm_output_bytes ?? 0) && performance.now() < until)) {
        const outputs = await current.run(feeds);
        for (const name of Object.keys(outputs)) outputBytes += outputs[name].data.byteLength;
        ++runs;
      }
      answer({ runs, output_bytes: outputBytes });
    } else if (command === 'run' && plain && Number.isInteger(n) && n > 0) {
      const ms = [];
      for (let i = 0; i < n; ++i) {
        const start = performance.now();
        await plain.run(feeds);
        ms.push(performance.now() - start);
      }
      answer({ ms });
    } else if (line === 'start-profile' && !session) {
      if (plain) await plain.release();
      plain = null;
      session = await ort.InferenceSession.create(config.model, {
        ...options,
        enableProfiling: true,
        profileFilePrefix: config.profile_prefix,
        optimizedModelFilePath: config.optimized,
      });
      answer({ ready: true });
    } else if (line === 'profile' && session) {
      const start = performance.now();
      await session.run(feeds);
      answer({ ms: performance.now() - start });
    } else if (line === 'end' && session) {
      answer({ profile: session.endProfiling() ?? '' });
      await session.release();
      break;
    } else {
      answer({ error: `unknown command '${line}'` });
    }
  } catch (e) {
    answer({ error: String(e && e.message ? e.message : e) });
    process.exit(1);
  }
}
