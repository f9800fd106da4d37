#!/usr/bin/python3
"""The safetensors export checked by PyTorch (Debian's python3-torch), both ways, for every preset:

1. Trainbench trains a few batches and exports; the file loads with load_state_dict(strict=True)
   into bench/pytorch_bench.py's equivalent module, which predicts the same classes on 256 test
   images with probabilities within the tolerance of trainbench-cli's evaluation. The export read
   back by Trainbench gives the same predictions and the same weights hash.
2. A file written from a PyTorch module's own state_dict (its initial weights, with moving
   statistics and biases moved off their defaults, then trained a few steps) loads into Trainbench with --model, which
   predicts what PyTorch predicts; with the wrong --model it is refused, naming a tensor.

Debian has no python3-safetensors, so the format is read and written here by hand (an 8-byte
little-endian header length, a JSON header, raw little-endian data), as safetensors.torch would.

usage: torch_check.py TRAINBENCH_CLI DATA_DIR WORK_DIR
"""
import gzip
import json
import os
import struct
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import pytorch_bench  # noqa: E402  the presets' equivalent PyTorch modules

DTYPES = {"F32": (np.float32, torch.float32), "I64": (np.int64, torch.int64)}
TOLERANCE = 1e-4
IMAGES = 256


def load_file(path):
    """safetensors.torch.load_file, by hand."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        begin, end = t["data_offsets"]
        array = np.frombuffer(body[begin:end], dtype=np.dtype(DTYPES[t["dtype"]][0]).newbyteorder("<"))
        out[name] = torch.from_numpy(array.reshape(t["shape"]).copy())
    return out, header.get("__metadata__", {})


def save_file(tensors, path, metadata):
    """safetensors.torch.save_file, by hand: tensors in name order, the data 8-byte aligned."""
    header, body = {"__metadata__": metadata}, b""
    for name in sorted(tensors):
        t = tensors[name].contiguous()
        dtype = {torch.float32: "F32", torch.int64: "I64"}[t.dtype]
        raw = t.numpy().astype(np.dtype(DTYPES[dtype][0]).newbyteorder("<")).tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [len(body), len(body) + len(raw)]}
        body += raw
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + body)


def test_images(data_dir):
    for name in ("t10k-images-idx3-ubyte", "t10k-images-idx3-ubyte.gz", "t10k-images.idx3-ubyte",
                 "t10k-images.idx3-ubyte.gz"):
        p = os.path.join(data_dir, name)
        if os.path.exists(p):
            with gzip.open(p, "rb") if p.endswith(".gz") else open(p, "rb") as f:
                raw = f.read()
            n, h, w = struct.unpack(">III", raw[4:16])
            return np.frombuffer(raw, np.uint8, offset=16).reshape(n, 1, h, w)[:IMAGES]
    raise SystemExit(f"no test images in {data_dir}")


def cli(*args, expect=0):
    r = subprocess.run([CLI, *args], capture_output=True, text=True)
    if r.returncode != expect:
        raise SystemExit(f"trainbench-cli {' '.join(args)}: exit {r.returncode}, expected {expect}\n{r.stdout}{r.stderr}")
    return r


def predictions(csv):
    rows = np.loadtxt(csv, delimiter=",", skiprows=1, ndmin=2)
    return rows[:, 2].astype(int), rows[:, 3:]


def torch_probs(module, images, scale):
    module.eval()
    with torch.no_grad():
        return torch.softmax(module(torch.from_numpy(images.astype(np.float32) * scale)), dim=1).numpy()


def check(cond, what):
    if not cond:
        raise SystemExit("FAILED: " + what)


def main():
    global CLI
    CLI, data, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    images = test_images(data)
    presets = [line.split()[0] for line in cli("presets", "--kind", "image").stdout.splitlines() if line.strip()]
    check(sorted(presets) == sorted(pytorch_bench.MODELS), f"bench/pytorch_bench.py lacks a preset: {presets}")
    for i, preset in enumerate(presets):
        stem = os.path.join(work, preset)
        # 1. Trainbench -> PyTorch
        cli("train", "--data", data, "--model", preset, "--epochs", "1", "--batch", "32", "--max-batches", "20",
            "--seed", "19", "--threads", "2", "--save", stem + ".tbw")
        cli("export", "--weights", stem + ".tbw", "--format", "safetensors")
        ref = json.loads(cli("evaluate", "--data", data, "--weights", stem + ".tbw", "--limit", str(IMAGES),
                             "--predictions", stem + ".csv", "--json").stdout)
        back = json.loads(cli("evaluate", "--data", data, "--weights", stem + ".safetensors", "--limit", str(IMAGES),
                              "--predictions", stem + ".back.csv", "--json").stdout)
        check(back["weights_sha256"] == ref["weights_sha256"], f"{preset}: the hash changed through safetensors")
        with open(stem + ".csv") as a, open(stem + ".back.csv") as b:
            check(a.read() == b.read(), f"{preset}: predictions changed through safetensors")
        classes, probs = predictions(stem + ".csv")
        state, meta = load_file(stem + ".safetensors")
        check(meta.get("weights_sha256") == ref["weights_sha256"], f"{preset}: metadata hash")
        module, scale = pytorch_bench.MODELS[preset]()
        module.load_state_dict(state, strict=True)
        p = torch_probs(module, images, scale)
        diff, agree = float(np.abs(p - probs).max()), int((p.argmax(1) == classes).sum())
        print(json.dumps({"direction": "trainbench->pytorch", "model": preset, "images": len(images),
                          "max_abs_diff": diff, "argmax_agree": agree}))
        check(diff <= TOLERANCE and agree == len(images), f"{preset}: PyTorch disagrees with Trainbench")

        # 2. PyTorch -> Trainbench
        torch.manual_seed(100 + i)
        module, scale = pytorch_bench.MODELS[preset]()
        g = torch.Generator().manual_seed(200 + i)
        with torch.no_grad():
            for m in module.modules():
                if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
                    m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=g) * 0.1)
                    m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)
                    m.bias.copy_(torch.randn(m.bias.shape, generator=g) * 0.1)
                    m.num_batches_tracked.fill_(7)
                    if preset != "tpu-mnist-cnn":  # its BatchNorms have no scale: weight stays 1
                        m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
        # Then a few Adam steps, as a module trained in PyTorch has had: what the preset cannot hold
        # (tpu-mnist-cnn's BatchNorm scale) the module does not train.
        optimizer = torch.optim.Adam(module.parameters(), lr=1e-2)
        x = torch.from_numpy(images[:32].astype(np.float32) * scale)
        y = torch.randint(0, 10, (32,), generator=g)
        module.train()
        for _ in range(3):
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(module(x), y).backward()
            optimizer.step()
        p = torch_probs(module, images, scale)
        save_file(module.state_dict(), stem + ".torch.safetensors", {"format": "pt"})
        cli("evaluate", "--data", data, "--weights", stem + ".torch.safetensors", "--model", preset, "--limit",
            str(IMAGES), "--predictions", stem + ".torch.csv")
        classes, probs = predictions(stem + ".torch.csv")
        diff, agree = float(np.abs(p - probs).max()), int((p.argmax(1) == classes).sum())
        print(json.dumps({"direction": "pytorch->trainbench", "model": preset, "images": len(images),
                          "max_abs_diff": diff, "argmax_agree": agree}))
        check(diff <= TOLERANCE and agree == len(images), f"{preset}: Trainbench disagrees with PyTorch")
        # The same file is refused without --model, and as another preset's weights.
        r = cli("evaluate", "--data", data, "--weights", stem + ".torch.safetensors", expect=3)
        check("--model" in r.stderr, r.stderr)
        other = presets[(i + 1) % len(presets)]
        r = cli("evaluate", "--data", data, "--weights", stem + ".torch.safetensors", "--model", other, expect=3)
        check("tensor \"" in r.stderr, r.stderr)
        print(json.dumps({"refused_as": other, "message": r.stderr.strip()}))
    print("torch: every preset's export loads into its PyTorch module and agrees, both ways")


if __name__ == "__main__":
    main()
