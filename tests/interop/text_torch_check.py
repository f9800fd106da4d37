#!/usr/bin/python3
"""A Trainbench text model's safetensors export checked by PyTorch (Debian's python3-torch): it loads
with load_state_dict(strict=True) into bench/pytorch_lstm_bench.py's TextModel (nn.Embedding, one
stacked nn.LSTM, nn.Linear; PyTorch's gate order i, f, g, o), which gives the same next-symbol
probabilities as Trainbench (trainbench-cli generate --probabilities) at every prompt step.

usage: text_torch_check.py MODEL.safetensors PROBABILITIES.csv TOLERANCE
"""
import json
import os
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "bench"))
from torch_check import load_file  # noqa: E402  safetensors by hand
from pytorch_lstm_bench import TextModel  # noqa: E402


def main():
    path, csv, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    state, meta = load_file(path)
    vocab, embed = state["embedding.weight"].shape
    layers = sum(1 for k in state if k.startswith("lstm.weight_ih_l"))
    units = state["lstm.weight_hh_l0"].shape[1]
    model = TextModel(vocab, embed, units, layers, state["dense.weight"].shape[0])
    model.load_state_dict(state, strict=True)
    model.eval()
    rows = np.loadtxt(csv, delimiter=",", skiprows=1, ndmin=2)
    ids = torch.from_numpy(rows[:, 1].astype(np.int64)).unsqueeze(0)
    with torch.no_grad():
        probs = torch.softmax(model(ids), dim=-1)[0].numpy()
    ref = rows[:, 2:]
    diff = float(np.abs(probs - ref).max())
    agree = int((probs.argmax(1) == ref.argmax(1)).sum())
    print(json.dumps({"direction": "trainbench->pytorch", "model": meta.get("model_name"), "steps": len(ids[0]),
                      "lstm_layers": layers, "units": units, "max_abs_diff": diff, "argmax_agree": agree,
                      "torch": torch.__version__}))
    if diff > tolerance or agree != len(ids[0]):
        raise SystemExit("FAILED: PyTorch disagrees with Trainbench")


if __name__ == "__main__":
    main()
