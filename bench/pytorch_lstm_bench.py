#!/usr/bin/python3
"""The PyTorch side of the text-model benchmark (bench/README or docs/text-models.md): the presets'
equivalent TextModel (nn.Embedding, one stacked nn.LSTM, nn.Linear), trained on batches of T-byte
windows of a text with RMSprop, on the CPU with N threads. Prints a JSON object: training tokens/s
(median of repeats after warm-up) and generation tokens/s (one symbol at a time, the state carried,
`--streams` sequences side by side). Run with Debian's python3-torch: /usr/bin/python3.

usage: pytorch_lstm_bench.py --model small-text-lstm|shakespeare-lstm --data TEXT [--threads N]
       [--batch B] [--steps N] [--warmup N] [--repeats N] [--generate N] [--streams K]
"""
import argparse
import json
import os
import resource
import time

import numpy as np
import torch
import torch.nn as nn


class TextModel(nn.Module):
    """Trainbench's text presets in PyTorch; its state_dict names are Trainbench's safetensors names."""

    def __init__(self, vocab, embed, units, layers, out):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, units, num_layers=layers, batch_first=True)
        self.dense = nn.Linear(units, out)

    def forward(self, ids, state=None):
        y, state = self.lstm(self.embedding(ids), state)
        self.state = state
        return self.dense(y)


# (vocabulary, embedding, units, layers, outputs, sequence length) of the presets.
MODELS = {"small-text-lstm": (256, 32, 128, 1, 256, 64), "shakespeare-lstm": (256, 512, 512, 2, 256, 100)}


def blas_library():
    """The BLAS this process loaded (Debian's torch links the generic libblas.so.3, which is the slow
    reference BLAS unless OpenBLAS is installed: apt-get install libopenblas0-openmp)."""
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "blas" in line.lower() and "/" in line}
    return ", ".join(sorted(os.path.realpath(p) for p in paths)) or "none found"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="small-text-lstm", choices=sorted(MODELS))
    ap.add_argument("--data", default="/usr/share/common-licenses/GPL-3")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--generate", type=int, default=200)
    ap.add_argument("--streams", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    V, E, H, L, U, T = MODELS[a.model]
    text = np.frombuffer(open(a.data, "rb").read(), np.uint8).astype(np.int64)
    windows = (len(text) - 1) // T
    x_all = torch.from_numpy(text[: windows * T].reshape(windows, T).copy())
    y_all = torch.from_numpy(text[1: windows * T + 1].reshape(windows, T).copy())
    model = TextModel(V, E, H, L, U)
    opt = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, eps=1e-7)
    loss_fn = nn.CrossEntropyLoss()
    rng = np.random.default_rng(1)

    def step():
        idx = torch.from_numpy(rng.integers(0, windows, a.batch))
        opt.zero_grad(set_to_none=True)
        logits = model(x_all[idx])
        loss = loss_fn(logits.reshape(-1, U), y_all[idx].reshape(-1))
        loss.backward()
        opt.step()

    model.train()
    for _ in range(a.warmup):
        step()
    rates = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        for _ in range(a.steps):
            step()
        rates.append(a.steps * a.batch * T / (time.perf_counter() - t0))
    rates.sort()

    model.eval()
    gen_rates = []
    with torch.no_grad():
        for _ in range(a.repeats):
            ids = torch.full((a.streams, 1), 10, dtype=torch.int64)
            state = None
            t0 = time.perf_counter()
            for _ in range(a.generate):
                logits = model(ids, state)
                state = model.state
                probs = torch.softmax(logits[:, -1], dim=-1)
                ids = torch.multinomial(probs, 1)
            gen_rates.append(a.generate * a.streams / (time.perf_counter() - t0))
    gen_rates.sort()
    print(json.dumps({"framework": "pytorch", "torch": torch.__version__, "model": a.model, "threads": a.threads,
                      "batch": a.batch, "sequence_length": T,
                      "train_tokens_per_sec": rates[len(rates) // 2],
                      "generate_tokens_per_sec": gen_rates[len(gen_rates) // 2], "streams": a.streams,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
                      "blas": blas_library()}))


if __name__ == "__main__":
    main()
