// Writes a recurrent model saved by TensorFlow.js itself (tests/golden/tfjs/written_by_tfjs_rnn/) plus the
// outputs TensorFlow.js computes for a fixed input (tests/golden/tfjs/written_by_tfjs_rnn.json). TF.js writes
// null for every field the user left unset (LSTM's unit_forget_bias, implementation, ...), which Keras reads
// as "the default": the loader must too.
// Run: npm install @tensorflow/tfjs@4 (anywhere), then
//   NODE_PATH=<that folder>/node_modules node tests/golden/make_tfjs_rnn_fixture.js
const tf = require('@tensorflow/tfjs');
const fs = require('fs');
const path = require('path');

async function main() {
  const out = path.join(__dirname, 'tfjs', 'written_by_tfjs_rnn');
  fs.mkdirSync(out, {recursive: true});
  const seeded = (seed) => tf.initializers.glorotUniform({seed});
  const model = tf.sequential();
  model.add(tf.layers.conv1d({filters: 4, kernelSize: 2, inputShape: [6, 3], kernelInitializer: seeded(1),
                              biasInitializer: tf.initializers.randomNormal({seed: 2})}));
  model.add(tf.layers.lstm({units: 5, returnSequences: true, kernelInitializer: seeded(3),
                            recurrentInitializer: seeded(4)}));
  model.add(tf.layers.gru({units: 4, returnSequences: true, kernelInitializer: seeded(5),
                           recurrentInitializer: seeded(6), biasInitializer: tf.initializers.randomNormal({seed: 7})}));
  model.add(tf.layers.simpleRNN({units: 3, kernelInitializer: seeded(8), recurrentInitializer: seeded(9)}));
  model.add(tf.layers.dense({units: 2, activation: 'softmax', kernelInitializer: seeded(10)}));
  model.compile({optimizer: 'adam', loss: 'categoricalCrossentropy'});
  await model.save(tf.io.withSaveHandler(async (artifacts) => {
    const manifest = [{paths: ['weights.bin'], weights: artifacts.weightSpecs}];
    const json = {modelTopology: artifacts.modelTopology, format: artifacts.format,
                  generatedBy: artifacts.generatedBy, convertedBy: artifacts.convertedBy,
                  trainingConfig: artifacts.trainingConfig, weightsManifest: manifest};
    fs.writeFileSync(path.join(out, 'model.json'), JSON.stringify(json));
    fs.writeFileSync(path.join(out, 'weights.bin'), Buffer.from(artifacts.weightData));
    return {modelArtifactsInfo: {dateSaved: new Date(), modelTopologyType: 'JSON'}};
  }));
  const input = [];
  for (let b = 0; b < 2; ++b) {
    const seq = [];
    for (let t = 0; t < 6; ++t) seq.push([0, 1, 2].map((c) => Math.sin(1 + b * 7 + t * 3 + c)));
    input.push(seq);
  }
  const output = model.predict(tf.tensor3d(input)).arraySync();
  fs.writeFileSync(path.join(__dirname, 'tfjs', 'written_by_tfjs_rnn.json'), JSON.stringify({input, output}));
}
main();
