#!/usr/bin/python3
"""One PyTorch row for compare.py: the same two seed models, same batch, Adam, on the CPU
(or with --device cuda on an NVIDIA GPU: the splits go up once, as Trainbench's OpenCL device does).
The peer at its best: padding inside Conv2d (no separate ZeroPad2d), evaluation under
torch.inference_mode() in batches of --eval-batch, --memory-format channels_last on request (compare.py
runs both layouts and keeps the faster), and --precision bf16 for torch.autocast("cpu", bfloat16).

Prints a JSON object with training samples/s (median of repeats after warm-up), evaluation
samples/s and peak RSS. Run with Debian's python3-torch: /usr/bin/python3 bench/pytorch_bench.py
"""
import argparse, contextlib, gzip, json, resource, struct, time

import numpy as np
import torch
import torch.nn as nn


def load_images(path):
    with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
        data = f.read()
    n, h, w = struct.unpack(">III", data[4:16])
    return np.frombuffer(data, np.uint8, offset=16).reshape(n, 1, h, w)


def load_labels(path):
    with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
        data = f.read()
    return np.frombuffer(data, np.uint8, offset=8).astype(np.int64)


def colab_fashion_cnn():
    # Keras BatchNormalization: momentum 0.99 -> PyTorch momentum 0.01, eps 1e-3.
    bn = lambda c: nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)
    return nn.Sequential(
        bn(1), nn.Conv2d(1, 64, 5, padding=2), nn.ELU(), nn.MaxPool2d(2, 2), nn.Dropout(0.25),
        bn(64), nn.Conv2d(64, 128, 5, padding=2), nn.ELU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        bn(128), nn.Conv2d(128, 256, 5, padding=2), nn.ELU(), nn.MaxPool2d(2, 2), nn.Dropout(0.25),
        nn.Flatten(), nn.Linear(2304, 256), nn.ELU(), nn.Dropout(0.5), nn.Linear(256, 10)), 1.0


# The padding is inside the strided convolutions (faster than a ZeroPad2d before them); an Identity
# keeps each pad's place, so the module indices, and the safetensors names our export gives them
# (tests/interop/torch_check.py loads them with strict=True), stay as they were.
# Its BatchNorm layers have a shift and no scale (Keras' scale=False): PyTorch's affine scale is kept
# at 1, untrained, so that a module trained here loads into the preset (which refuses a scale that
# is not all ones).
def tpu_mnist_cnn():
    def center_only(bn):
        bn.weight.requires_grad_(False)
        return bn

    def bn2(c):
        return center_only(nn.BatchNorm2d(c, eps=1e-3, momentum=0.01, affine=True))
    return nn.Sequential(
        nn.Conv2d(1, 12, 3, padding=1, bias=False), bn2(12), nn.ReLU(),
        nn.Identity(), nn.Conv2d(12, 24, 6, stride=2, padding=2, bias=False), bn2(24), nn.ReLU(),
        nn.Identity(), nn.Conv2d(24, 64, 6, stride=2, padding=2, bias=False), bn2(64), nn.ReLU(),
        nn.Flatten(), nn.Linear(3136, 200, bias=False),
        center_only(nn.BatchNorm1d(200, eps=1e-3, momentum=0.01)),
        nn.ReLU(), nn.Dropout(0.4), nn.Linear(200, 10)), 1.0 / 255.0


def keras_mnist_cnn():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10)), 1.0 / 255.0


# The equivalent modules of the presets; Trainbench's safetensors exports load into them.
MODELS = {"colab-fashion-cnn": colab_fashion_cnn, "tpu-mnist-cnn": tpu_mnist_cnn, "keras-mnist-cnn": keras_mnist_cnn}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="tpu-mnist-cnn")
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--eval-images", type=int, default=2048)
    ap.add_argument("--eval-batch", type=int, default=256)
    ap.add_argument("--device", default="cpu", help="cpu, or cuda (the splits stay on the GPU)")
    ap.add_argument("--memory-format", default="contiguous", choices=["contiguous", "channels_last"])
    ap.add_argument("--precision", default="fp32", choices=["fp32", "bf16"],
                    help="bf16: torch.autocast(device, dtype=torch.bfloat16) around the forward pass and the loss")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    x = load_images(a.data + "/train-images-idx3-ubyte.gz")
    y = load_labels(a.data + "/train-labels-idx1-ubyte.gz")
    xt = load_images(a.data + "/t10k-images-idx3-ubyte.gz")
    model, scale = MODELS[a.model]()
    fmt = torch.channels_last if a.memory_format == "channels_last" else torch.contiguous_format
    model = model.to(memory_format=fmt)
    dev = torch.device(a.device)
    autocast = (lambda: torch.autocast(dev.type, dtype=torch.bfloat16)) if a.precision == "bf16" else \
        (lambda: contextlib.nullcontext())
    gpu = dev.type != "cpu"
    if gpu:
        model = model.to(dev)
        x_dev = torch.from_numpy(x).to(dev)
        y_dev = torch.from_numpy(y).to(dev)
        xt_dev = torch.from_numpy(xt).to(dev)
    sync = torch.cuda.synchronize if gpu else (lambda: None)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    loss_fn = nn.CrossEntropyLoss()
    cursor = 0

    def step():
        nonlocal cursor
        if cursor + a.batch > len(x):
            cursor = 0
        if gpu:
            xb = x_dev[cursor:cursor + a.batch].float() * scale
            yb = y_dev[cursor:cursor + a.batch]
        else:
            xb = torch.from_numpy(x[cursor:cursor + a.batch].astype(np.float32) * scale)  # batch by batch, like us
            yb = torch.from_numpy(y[cursor:cursor + a.batch])
        cursor += a.batch
        opt.zero_grad()
        with autocast():
            loss = loss_fn(model(xb.contiguous(memory_format=fmt)), yb)
        loss.backward()
        opt.step()

    model.train()
    for _ in range(a.warmup):
        step()
    sync()
    rates = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        for _ in range(a.steps):
            step()
        sync()
        rates.append(a.steps * a.batch / (time.perf_counter() - t0))
    model.eval()
    evals = []
    batch_of = (lambda i, n: (xt_dev[i:i + n].float() * scale).contiguous(memory_format=fmt)) if gpu else \
        (lambda i, n: torch.from_numpy(xt[i:i + n].astype(np.float32) * scale).contiguous(memory_format=fmt))
    with torch.inference_mode(), autocast():
        model(batch_of(0, 256))
        sync()
        for _ in range(a.repeats):
            t0 = time.perf_counter()
            for i in range(0, a.eval_images, a.eval_batch):
                model(batch_of(i, min(a.eval_batch, a.eval_images - i)))
            sync()
            evals.append(a.eval_images / (time.perf_counter() - t0))
    rates.sort()
    evals.sort()
    print(json.dumps({"framework": "pytorch " + torch.__version__, "model": a.model, "threads": a.threads,
                      "device": a.device + (" (" + torch.cuda.get_device_name() + ")" if gpu else ""),
                      "batch": a.batch, "eval_batch": a.eval_batch, "memory_format": a.memory_format,
                      "precision": a.precision, "train_samples_per_sec": rates[len(rates) // 2],
                      "seconds_per_epoch": 59904 / rates[len(rates) // 2],
                      "eval_samples_per_sec": evals[len(evals) // 2],
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))


if __name__ == "__main__":
    main()
