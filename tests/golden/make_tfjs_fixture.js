// Writes a model saved by TensorFlow.js itself (tests/golden/tfjs/written_by_tfjs/) plus the outputs
// TensorFlow.js computes for a fixed input (tests/golden/tfjs/written_by_tfjs.json), for load_tfjs's test.
// Run: npm install @tensorflow/tfjs@4 (anywhere), then
//   NODE_PATH=<that folder>/node_modules node tests/golden/make_tfjs_fixture.js
const tf = require('@tensorflow/tfjs');
const fs = require('fs');
const path = require('path');

async function main() {
  const out = path.join(__dirname, 'tfjs', 'written_by_tfjs');
  fs.mkdirSync(out, {recursive: true});
  const model = tf.sequential();
  model.add(tf.layers.dense({units: 6, activation: 'relu', inputShape: [4], kernelInitializer: 'glorotUniform',
                             biasInitializer: tf.initializers.randomNormal({seed: 2})}));
  model.add(tf.layers.dense({units: 3, activation: 'softmax', kernelInitializer: tf.initializers.glorotNormal({seed: 3})}));
  model.compile({optimizer: 'adam', loss: 'sparseCategoricalCrossentropy', metrics: ['accuracy']});
  await model.save(tf.io.withSaveHandler(async (artifacts) => {
    const manifest = [{paths: ['weights.bin'], weights: artifacts.weightSpecs}];
    const json = {modelTopology: artifacts.modelTopology, format: artifacts.format,
                  generatedBy: artifacts.generatedBy, convertedBy: artifacts.convertedBy,
                  trainingConfig: artifacts.trainingConfig, weightsManifest: manifest};
    fs.writeFileSync(path.join(out, 'model.json'), JSON.stringify(json));
    fs.writeFileSync(path.join(out, 'weights.bin'), Buffer.from(artifacts.weightData));
    return {modelArtifactsInfo: {dateSaved: new Date(), modelTopologyType: 'JSON'}};
  }));
  const input = [[0.1, -0.2, 0.3, 0.4], [1.0, 0.5, -0.5, -1.0], [0.0, 0.0, 2.0, -3.0]];
  const output = model.predict(tf.tensor2d(input)).arraySync();
  fs.writeFileSync(path.join(__dirname, 'tfjs', 'written_by_tfjs.json'), JSON.stringify({input, output}));
}
main();
