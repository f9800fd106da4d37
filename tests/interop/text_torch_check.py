#!/usr/bin/python3
"""A Trainbench text model's safetensors export checked by PyTorch (Debian's python3-torch): it loads
with load_state_dict(strict=True) into bench/pytorch_lstm_bench.py's TextModel (nn.Embedding, one
stacked nn.LSTM, nn.Linear; PyTorch's gate order i, f, g, o), which gives the same next-symbol
probabilities as Trainbench (trainbench-cli generate --probabilities) at every prompt step.
Then the other way: a TextModel of the same shape with PyTorch's own initialization (nn.LSTM's two
biases both random) saved by PyTorch's names, imported by `trainbench-cli export --model` on the
text, gives PyTorch's probabilities too.

usage: text_torch_check.py MODEL.safetensors PROBABILITIES.csv TOLERANCE CLI MODEL TEXT
"""
import json
import os
import subprocess
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "bench"))
from torch_check import load_file, save_file  # noqa: E402  safetensors by hand
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

    # PyTorch -> Trainbench: a file PyTorch wrote, without Trainbench's metadata.
    cli, preset, text = sys.argv[4], sys.argv[5], sys.argv[6]
    torch.manual_seed(23)
    theirs = TextModel(vocab, embed, units, layers, state["dense.weight"].shape[0])
    theirs.eval()
    with torch.no_grad():  # tripled: peaked probabilities, in which a bias left out shows (4e-3, not 2e-4)
        for p in theirs.parameters():
            p.mul_(3)
    stem = os.path.splitext(path)[0] + ".torch"
    save_file(theirs.state_dict(), stem + ".safetensors", {"format": "pt"})
    subprocess.run([cli, "export", "--weights", stem + ".safetensors", "--model", preset, "--data", text, "--out",
                    stem + ".tbw"], check=True, stdout=subprocess.DEVNULL)
    r = subprocess.run([cli, "evaluate", "--weights", stem + ".safetensors", "--model", preset, "--data", text],
                       check=True, capture_output=True, text=True)  # the text is cut in bytes for it
    if "predicted symbols" not in r.stdout:
        raise SystemExit("FAILED: evaluate of PyTorch's file printed: " + r.stdout)
    prompt = bytes(int(i) for i in rows[:, 1]).decode("latin-1")
    subprocess.run([cli, "generate", "--weights", stem + ".tbw", "--prompt", prompt, "--length", "0",
                    "--probabilities", stem + ".csv"], check=True, stdout=subprocess.DEVNULL)
    mine = np.loadtxt(stem + ".csv", delimiter=",", skiprows=1, ndmin=2)[:, 2:]
    with torch.no_grad():
        probs = torch.softmax(theirs(ids), dim=-1)[0].numpy()
    diff = float(np.abs(probs - mine).max())
    agree = int((probs.argmax(1) == mine.argmax(1)).sum())
    print(json.dumps({"direction": "pytorch->trainbench", "model": preset, "steps": len(ids[0]),
                      "max_abs_diff": diff, "argmax_agree": agree}))
    if diff > tolerance or agree != len(ids[0]):
        raise SystemExit("FAILED: Trainbench disagrees with PyTorch on PyTorch's weights")


if __name__ == "__main__":
    main()
