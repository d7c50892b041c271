#!/usr/bin/env node
// Runs an ONNX model in ONNX Runtime (onnxruntime-node, installed here by `npm ci`) on .npy inputs and
// writes each output as .npy: the oracle the ONNX export tests compare kerascpp's predictions with.
//   node run_onnx.js MODEL.onnx OUT_PREFIX IN_1.npy [IN_2.npy ...]
// Inputs go to the model's inputs in order; outputs are written to OUT_PREFIX<i>.npy in the model's output
// order, and their names printed one per line. Exit status 1 with the runtime's message on any error.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require(path.join(__dirname, 'node_modules', 'onnxruntime-node'));

const kTypes = {'<f4': ['float32', Float32Array], '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array]};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file} is not a .npy file`);
  const major = buf[6];
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLength;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const type = kTypes[descr];
  if (!type) throw new Error(`${file}: dtype ${descr} is not supported`);
  const bytes = buf.subarray(start);
  const data = new type[1](bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return new ort.Tensor(type[0], data, shape);
}

function writeNpy(file, tensor) {
  const descr = {float32: '<f4', int32: '<i4', int64: '<i8'}[tensor.type];
  if (!descr) throw new Error(`output type ${tensor.type} is not supported`);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                                        Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  const [model, outPrefix, ...inputs] = process.argv.slice(2);
  if (!model || !outPrefix || inputs.length === 0) {
    console.error('usage: node run_onnx.js MODEL.onnx OUT_PREFIX IN_1.npy [IN_2.npy ...]');
    process.exit(2);
  }
  const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, interOpNumThreads: 1});
  if (inputs.length !== session.inputNames.length)
    throw new Error(`the model has ${session.inputNames.length} inputs, ${inputs.length} .npy files given`);
  const feeds = {};
  session.inputNames.forEach((name, i) => { feeds[name] = readNpy(inputs[i]); });
  const results = await session.run(feeds);
  session.outputNames.forEach((name, i) => {
    writeNpy(`${outPrefix}${i}.npy`, results[name]);
    console.log(name);
  });
}

main().catch(e => {
  console.error(`run_onnx.js: ${e.message}`);
  process.exit(1);
});
