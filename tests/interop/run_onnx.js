// Runs a Trainbench ONNX export in onnxruntime (CPU) on the first N test images of a dataset, fed
// as stored (uint8), and compares with Trainbench's own evaluation of the same images
// (trainbench-cli evaluate --predictions). Prints one JSON line; exits 1 when an output differs by
// more than the tolerance or any predicted class differs.
// usage: node run_onnx.js MODEL.onnx DATA_DIR PREDICTIONS.csv [N] [TOLERANCE]
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const ort = require('onnxruntime-node');

function readIdx(dir, base) {
  for (const name of [base + '-idx3-ubyte', base + '-idx3-ubyte.gz', base + '.idx3-ubyte', base + '.idx3-ubyte.gz']) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) {
      const raw = fs.readFileSync(p);
      return p.endsWith('.gz') ? zlib.gunzipSync(raw) : raw;
    }
  }
  throw new Error(`no ${base} images in ${dir}`);
}

async function main() {
  const [model, dataDir, csvPath, nArg, tolArg] = process.argv.slice(2);
  const tolerance = Number(tolArg || 1e-4);
  const idx = readIdx(dataDir, 't10k-images');
  const h = idx.readUInt32BE(8), w = idx.readUInt32BE(12);
  const rows = fs.readFileSync(csvPath, 'utf8').trim().split('\n');
  const header = rows.shift().split(',');
  const classes = header.length - 3;
  const n = Math.min(Number(nArg || rows.length), rows.length);
  if (n < 1) throw new Error('no predictions to compare with');
  const ref = rows.slice(0, n).map((l) => l.split(',').map(Number));

  const session = await ort.InferenceSession.create(model);
  const pixels = Uint8Array.from(idx.subarray(16, 16 + n * h * w));
  const out = await session.run({ image: new ort.Tensor('uint8', pixels, [n, h, w]) });
  const probs = out.probabilities.data, logits = out.logits.data, cls = out.class.data;
  if (out.probabilities.dims.join() !== [n, classes].join()) throw new Error(`probabilities have shape ${out.probabilities.dims}`);

  let maxDiff = 0, agree = 0, classOutputAgrees = 0, maxSoftmaxError = 0;
  for (let i = 0; i < n; ++i) {
    let best = 0, sumExp = 0, maxLogit = -Infinity;
    for (let c = 0; c < classes; ++c) {
      maxDiff = Math.max(maxDiff, Math.abs(probs[i * classes + c] - ref[i][3 + c]));
      if (probs[i * classes + c] > probs[i * classes + best]) best = c;
      maxLogit = Math.max(maxLogit, logits[i * classes + c]);
    }
    for (let c = 0; c < classes; ++c) sumExp += Math.exp(logits[i * classes + c] - maxLogit);
    for (let c = 0; c < classes; ++c)
      maxSoftmaxError = Math.max(maxSoftmaxError, Math.abs(Math.exp(logits[i * classes + c] - maxLogit) / sumExp - probs[i * classes + c]));
    if (best === ref[i][2]) ++agree;
    if (Number(cls[i]) === ref[i][2]) ++classOutputAgrees;
  }
  const result = {
    model: path.basename(model), images: n, inputs: session.inputNames, outputs: session.outputNames,
    max_abs_diff: maxDiff, argmax_agree: agree, class_output_agrees: classOutputAgrees,
    logits_softmax_error: maxSoftmaxError, onnxruntime: ort.env.versions.node,
  };
  console.log(JSON.stringify(result));
  const ok = maxDiff <= tolerance && agree === n && classOutputAgrees === n && maxSoftmaxError <= 1e-5 &&
    session.inputNames.join() === 'image' && session.outputNames.join() === 'logits,probabilities,class';
  process.exit(ok ? 0 : 1);
}

main().catch((e) => { console.error(e); process.exit(1); });
