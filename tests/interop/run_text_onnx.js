// Runs a Trainbench text-model ONNX export in onnxruntime (CPU) on the prompt of a probabilities CSV
// (trainbench-cli generate --probabilities: "position,id,p_0..p_{V-1}" per prompt symbol, from a
// fresh state) and compares the next-symbol probabilities at every step. Prints one JSON line; exits
// 1 when a probability differs by more than the tolerance.
// usage: node run_text_onnx.js MODEL.onnx PROBABILITIES.csv [TOLERANCE]
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

async function main() {
  const [model, csvPath, tolArg] = process.argv.slice(2);
  const tolerance = Number(tolArg || 1e-4);
  const rows = fs.readFileSync(csvPath, 'utf8').trim().split('\n');
  rows.shift();
  const ref = rows.map((l) => l.split(',').map(Number));
  const T = ref.length, V = ref[0].length - 2;
  const ids = BigInt64Array.from(ref.map((r) => BigInt(r[1])));
  const session = await ort.InferenceSession.create(model);
  const out = await session.run({ tokens: new ort.Tensor('int64', ids, [1, T]) });
  if (out.probabilities.dims.join() !== [1, T, V].join()) throw new Error(`probabilities have shape ${out.probabilities.dims}`);
  const probs = out.probabilities.data, cls = out.class.data;
  let maxDiff = 0, argmaxAgree = 0;
  for (let t = 0; t < T; ++t) {
    let best = 0;
    for (let v = 0; v < V; ++v) {
      maxDiff = Math.max(maxDiff, Math.abs(probs[t * V + v] - ref[t][2 + v]));
      if (ref[t][2 + v] > ref[t][2 + best]) best = v;
    }
    if (Number(cls[t]) === best) ++argmaxAgree;
  }
  console.log(JSON.stringify({ model: path.basename(model), steps: T, vocabulary: V, max_abs_diff: maxDiff,
                               argmax_agree: argmaxAgree, inputs: session.inputNames, outputs: session.outputNames }));
  process.exit(maxDiff <= tolerance && argmaxAgree === T && session.inputNames.join() === 'tokens' ? 0 : 1);
}

main().catch((e) => { console.error(e); process.exit(1); });
