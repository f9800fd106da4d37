#!/usr/bin/python3
"""Runs Trainbench and PyTorch side by side on this machine and prints the ratio table.

  /usr/bin/python3 bench/compare.py [--build build] [--steps 60] [--repeats 3] [--models a,b] [--threads 1,2]
                                    [--isa LEVEL] [--native build-native] [--device opencl:0 [--torch-device cuda]]
                                    [--precision fp32,bf16] [--torch-formats contiguous,channels_last]

--precision fp32,bf16 runs every row in each precision: ours with --precision, PyTorch with
torch.autocast("cpu", dtype=torch.bfloat16) for bf16; a CPU without AVX512_BF16 refuses our bf16
and the row says why. PyTorch runs once per --torch-formats layout (fresh processes) and each of its
columns keeps that layout's best (fastest training, fastest evaluation, smallest peak RSS); the
layout of each is printed under the table. PyTorch runs under the Python that runs this script
(Debian's /usr/bin/python3 with python3-torch; on another machine, the one that has torch).

Each row runs in fresh processes (so peak RSS is per row), ours then PyTorch's, in one run.
--native DIR also runs a -DTRAINBENCH_NATIVE=ON build's bench on each row, right after the
portable one, and adds the portable/native ratios.
--device SPEC adds, per model, a row of Trainbench on that device (opencl:K) beside PyTorch on
--torch-device (cpu with --threads' last count, or cuda on an NVIDIA machine).
"""
import argparse, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_ours(cmd):
    """Our bench's JSON, or {"refused": reason} when it refuses the row (bf16 on a CPU without it)."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"refused": (p.stderr.strip() or p.stdout.strip()).splitlines()[-1]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_torch(cmd, formats):
    """PyTorch at its best over the memory layouts: each metric from the layout that did best."""
    runs = [run(cmd + ["--memory-format", f]) for f in formats]
    best = dict(runs[0])
    for key, pick in (("train_samples_per_sec", max), ("eval_samples_per_sec", max), ("peak_rss_mb", min)):
        r = pick(runs, key=lambda r: r[key])
        best[key] = r[key]
        best[key + "_layout"] = r["memory_format"]
    best["seconds_per_epoch"] = 59904 / best["train_samples_per_sec"]
    return best


def reference_blas():
    """Whether Debian's torch would run on the reference BLAS: it links the generic libblas.so.3, which
    is the slow reference implementation unless OpenBLAS is installed (the peer would not be at its
    best)."""
    return "/blas/libblas" in os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--models", default="colab-fashion-cnn,tpu-mnist-cnn")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="print Trainbench's per-layer times")
    ap.add_argument("--isa", help="run Trainbench's kernels of this level (baseline, avx2, avx512)")
    ap.add_argument("--native", help="a -DTRAINBENCH_NATIVE=ON build folder to compare the portable build with")
    ap.add_argument("--device", help="also run Trainbench on this device (opencl:K), one row per model")
    ap.add_argument("--torch-device", default="cpu", help="PyTorch's device for the --device rows (cpu or cuda)")
    ap.add_argument("--precision", default="fp32", help="fp32, bf16 or fp32,bf16: the rows' precisions")
    ap.add_argument("--torch-formats", default="contiguous,channels_last",
                    help="PyTorch's memory layouts to try (the best of each column is kept)")
    a = ap.parse_args()
    formats = a.torch_formats.split(",")
    bench = os.path.join(a.build, "bench", "trainbench-bench")
    common = ["--data", a.data, "--steps", str(a.steps), "--repeats", str(a.repeats)]
    ours_extra = (["--profile"] if a.profile else []) + (["--isa", a.isa] if a.isa else [])
    rows = []
    for model in a.models.split(","):
        for t, prec in [(t, prec) for t in a.threads.split(",") for prec in a.precision.split(",")]:
            prec_arg = [] if prec == "fp32" else ["--precision", prec]
            ours = run_ours([bench, "--model", model, "--threads", t] + prec_arg + common + ours_extra)
            ours.setdefault("model", model)
            ours.setdefault("threads", t)
            ours["precision"] = prec
            if a.native and "refused" not in ours:
                native = run([os.path.join(a.native, "bench", "trainbench-bench"), "--model", model, "--threads", t] +
                             common + ours_extra)
                ours["native_train"] = native["train_samples_per_sec"]
                ours["native_eval"] = native["eval_samples_per_sec"]
            torch = run_torch([sys.executable, os.path.join(here, "pytorch_bench.py"), "--model", model,
                               "--threads", t, "--precision", prec] + common, formats)
            rows.append((ours, torch))
            print(f"measured {model} threads={t} {prec}", file=sys.stderr, flush=True)
        if a.device:
            ours = run([bench, "--model", model, "--device", a.device] + common)
            ours["threads"] = a.device
            ours["precision"] = "fp32"
            torch = run_torch([sys.executable, os.path.join(here, "pytorch_bench.py"), "--model", model,
                               "--device", a.torch_device, "--threads", a.threads.split(",")[-1]] + common, formats)
            rows.append((ours, torch))
            print(f"measured {model} on {a.device}", file=sys.stderr, flush=True)
    kernels = next((o["kernels"] for o, _ in rows if "kernels" in o), "refused")
    if reference_blas():
        print("warning: PyTorch ran on the reference BLAS (slow, not the peer at its best): "
              "apt-get install libopenblas0-openmp")
    print(f"Trainbench ({kernels}) vs {rows[0][1]['framework']}, batch 128, PyTorch evaluation batch "
          f"{rows[0][1].get('eval_batch', 64)}, {a.steps} steps x {a.repeats} repeats (median), same machine, "
          f"one run\n")
    hdr = ("| model | threads or device | precision | train samples/s | PyTorch | ratio | s/epoch (59904) | PyTorch | "
           "eval samples/s | PyTorch | ratio | peak RSS MB | PyTorch | RSS ratio |")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for o, p in rows:
        if "refused" in o:
            print(f"| {o['model']} | {o['threads']} | {o['precision']} | refused: {o['refused']} | "
                  f"{p['train_samples_per_sec']:.0f} | | | {p['seconds_per_epoch']:.1f} | | "
                  f"{p['eval_samples_per_sec']:.0f} | | | {p['peak_rss_mb']:.0f} | |")
            continue
        print(f"| {o['model']} | {o['threads']} | {o['precision']} | {o['train_samples_per_sec']:.0f} | "
              f"{p['train_samples_per_sec']:.0f} | "
              f"{o['train_samples_per_sec'] / p['train_samples_per_sec']:.2f} | {o['seconds_per_epoch']:.1f} | "
              f"{p['seconds_per_epoch']:.1f} | {o['eval_samples_per_sec']:.0f} | {p['eval_samples_per_sec']:.0f} | "
              f"{o['eval_samples_per_sec'] / p['eval_samples_per_sec']:.2f} | {o['peak_rss_mb']:.0f} | "
              f"{p['peak_rss_mb']:.0f} | {o['peak_rss_mb'] / p['peak_rss_mb']:.2f} |")
    if len(formats) > 1:
        print("\nPyTorch's layout per column (train / eval / RSS):")
        for o, p in rows:
            print(f"  {o['model']} {o['threads']} {o['precision']}: {p.get('train_samples_per_sec_layout')} / "
                  f"{p.get('eval_samples_per_sec_layout')} / {p.get('peak_rss_mb_layout')}")
    if a.native:
        print("\nportable build vs -march=native build (train and eval samples/s; ratio > 1: portable faster)\n")
        print("| model | threads | portable train | native train | ratio | portable eval | native eval | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for o, _ in rows:
            if "refused" in o or "native_train" not in o:
                continue
            print(f"| {o['model']} | {o['threads']} | {o['train_samples_per_sec']:.0f} | {o['native_train']:.0f} | "
                  f"{o['train_samples_per_sec'] / o['native_train']:.3f} | {o['eval_samples_per_sec']:.0f} | "
                  f"{o['native_eval']:.0f} | {o['eval_samples_per_sec'] / o['native_eval']:.3f} |")
    if a.profile:
        for o, _ in rows:
            if "refused" in o or "profile" not in o:
                continue
            print(f"\nper-layer ms/step, {o['model']}, {o['threads']} thread(s): forward / backward")
            for l in o["profile"]:
                print(f"  {l['layer']:<24} {l['forward_ms']:8.2f} {l['backward_ms']:8.2f}")


if __name__ == "__main__":
    main()
