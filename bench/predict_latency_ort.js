#!/usr/bin/env node
// ONNX Runtime's run of predict_latency's measurements, the inference anchor: the ONNX file that
// `predict_latency --onnx FILE` wrote (the same model), throughput over N random samples in batches and the
// median/p99 latency of one sample over 1,000 calls, in ONNX Runtime from npm (tools/onnx_runtime,
// onnxruntime-node), all graph optimizations on, intra-op threads as given, sequential execution.
//   node bench/predict_latency_ort.js MODEL.onnx --shape 28,28,1 [--vocabulary V] --batch-size 32 --threads 2 --samples N
//        [--runtime DIR]   (DIR/node_modules holds another copy of ONNX Runtime: bench/onnxruntime_held_to_avx2.sh's)
// Prints the same "name: value" lines as predict_latency. Each call goes through Node's binding
// (an async call into the same libonnxruntime.so a C++ program would link); `binding_overhead_us` is the
// median latency of a one-node Identity graph in the same session options, the part of
// latency_median_us that is not ONNX Runtime's work.
'use strict';
const path = require('path');

function flags(argv) {
  const a = {model: argv[0], shape: [28, 28, 1], vocabulary: 0, batchSize: 32, threads: 2, samples: 10000,
             runtime: path.join(__dirname, '..', 'tools', 'onnx_runtime')};
  for (let i = 1; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`flag ${flag} needs a value`);
    if (flag === '--shape') a.shape = value.split(',').map(Number);
    else if (flag === '--vocabulary') a.vocabulary = Number(value);
    else if (flag === '--batch-size') a.batchSize = Number(value);
    else if (flag === '--threads') a.threads = Number(value);
    else if (flag === '--samples') a.samples = Number(value);
    else if (flag === '--runtime') a.runtime = path.resolve(value);
    else throw new Error(`unknown flag ${flag} (use --shape, --vocabulary, --batch-size, --threads, --samples, --runtime)`);
  }
  if (!a.model) throw new Error('usage: predict_latency_ort.js MODEL.onnx --shape D1,D2,... [--vocabulary V] ...');
  return a;
}

function randomSamples(n, sampleSize, vocabulary) {
  const data = new Float32Array(n * sampleSize);
  let state = 12345;  // a small LCG: the values do not change the cost
  for (let i = 0; i < data.length; ++i) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = vocabulary > 0 ? 1 + (state % (vocabulary - 1)) : state / 4294967296;
  }
  return data;
}

function percentile(samples, p) {
  const s = [...samples].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.round(p / 100 * (s.length - 1)))];
}

// Latencies in microseconds of `calls` runs of `session` on `feeds`, after 50 warm-up runs.
async function latencies(session, feeds, calls) {
  for (let i = 0; i < 50; ++i) await session.run(feeds);
  const out = [];
  for (let i = 0; i < calls; ++i) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    out.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return out;
}

// A one-node Identity graph over float[1, 1], as ONNX ModelProto bytes (IR 8, opset 13), written field by field.
function identityModel() {
  const varint = (v) => { const out = []; while (v > 127) { out.push((v & 127) | 128); v >>>= 7; } out.push(v); return out; };
  const int = (field, v) => Buffer.from([...varint(field << 3), ...varint(v)]);
  const bytes = (field, ...parts) => { const b = Buffer.concat(parts); return Buffer.concat([Buffer.from([...varint((field << 3) | 2), ...varint(b.length)]), b]); };
  const text = (field, s) => bytes(field, Buffer.from(s));
  const dim = bytes(1, int(1, 1));                                    // TensorShapeProto.dim { dim_value: 1 }
  const type = bytes(2, bytes(1, int(1, 1), bytes(2, dim, dim)));    // TypeProto { tensor_type { FLOAT, [1, 1] } }
  const graph = bytes(7, bytes(1, text(1, 'x'), text(2, 'y'), text(4, 'Identity')), text(2, 'identity'),
                      bytes(11, text(1, 'x'), type), bytes(12, text(1, 'y'), type));
  return new Uint8Array(Buffer.concat([int(1, 8), graph, bytes(8, text(1, ''), int(2, 13))]));
}

async function main() {
  const a = flags(process.argv.slice(2));
  const ort = require(path.join(a.runtime, 'node_modules', 'onnxruntime-node'));
  const options = {intraOpNumThreads: a.threads, interOpNumThreads: 1, executionMode: 'sequential',
                   graphOptimizationLevel: 'all'};
  const session = await ort.InferenceSession.create(a.model, options);
  const input = session.inputNames[0];
  const sampleSize = a.shape.reduce((x, y) => x * y, 1);
  const data = randomSamples(a.samples, sampleSize, a.vocabulary);
  const batch = (begin, end) =>
    ({[input]: new ort.Tensor('float32', data.subarray(begin * sampleSize, end * sampleSize), [end - begin, ...a.shape])});
  await session.run(batch(0, Math.min(a.samples, 2 * a.batchSize)));  // warm-up
  let checksum = 0;
  const start = process.hrtime.bigint();
  for (let b = 0; b < a.samples; b += a.batchSize) {
    const out = await session.run(batch(b, Math.min(a.samples, b + a.batchSize)));
    const values = out[session.outputNames[0]].data;
    for (let i = 0; i < values.length; ++i) checksum += values[i];
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const single = await latencies(session, batch(0, 1), 1000);
  const identity = await ort.InferenceSession.create(identityModel(), options);
  const overhead = await latencies(identity, {x: new ort.Tensor('float32', new Float32Array(1), [1, 1])}, 1000);
  console.log(`threads: ${a.threads}\nbatch_size: ${a.batchSize}\noutput_checksum: ${checksum.toFixed(4)}\n` +
              `predict_samples_per_sec: ${Math.round(a.samples / seconds)}\n` +
              `latency_median_us: ${percentile(single, 50).toFixed(1)}\nlatency_p99_us: ${percentile(single, 99).toFixed(1)}\n` +
              `binding_overhead_us: ${percentile(overhead, 50).toFixed(1)}`);
}

main().catch((e) => { console.error(`predict_latency_ort: ${e.message}`); process.exit(1); });
