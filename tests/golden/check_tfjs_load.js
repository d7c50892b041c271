// Loads a folder written by kerascpp's export_tfjs (or `kerascpp convert MODEL DIR`) in TensorFlow.js
// and prints its predictions for a JSON array of input rows, so they can be compared with kerascpp's.
// Run: NODE_PATH=<folder with @tensorflow/tfjs>/node_modules node tests/golden/check_tfjs_load.js DIR '[[...], ...]'
const tf = require('@tensorflow/tfjs');
const fs = require('fs');
const path = require('path');

async function main() {
  const dir = process.argv[2];
  const modelJson = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const specs = [], buffers = [];
  for (const group of modelJson.weightsManifest) {
    specs.push(...group.weights);
    for (const p of group.paths) buffers.push(fs.readFileSync(path.join(dir, p)));
  }
  const all = Buffer.concat(buffers);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  const model = await tf.loadLayersModel(tf.io.fromMemory({modelTopology: modelJson.modelTopology,
                                                           weightSpecs: specs, weightData}));
  const x = tf.tensor(JSON.parse(process.argv[3]));
  console.log(JSON.stringify(model.predict(x).arraySync()));
}
main().catch((e) => { console.error(e.message); process.exit(1); });
