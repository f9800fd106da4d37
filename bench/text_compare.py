#!/usr/bin/python3
"""The text models' benchmark: Trainbench's LSTM (bench/trainbench-bench) beside PyTorch's nn.LSTM
(bench/pytorch_lstm_bench.py, Debian's python3-torch) on this CPU, the same model, text, batch and
RMSprop, for each thread count; prints a Markdown table of training and generation tokens/s, the
ratios, and the recurrent products' GFLOP/s against the FMA peak of one core.

  /usr/bin/python3 bench/text_compare.py [--build build] [--data TEXT] [--models small-text-lstm:64,shakespeare-lstm:32]
                                         [--threads 1,2] [--steps N] [--repeats N]

A model is NAME:BATCH. The FMA peak is measured, not estimated from the clock and the CPU model (a VM
reports its base clock, and may report another CPU than its host's): trainbench-bench times twelve
independent FMA chains on one core at the dispatch level's width.
"""
import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--data", default="/usr/share/common-licenses/GPL-3")
    ap.add_argument("--models", default="small-text-lstm:64,shakespeare-lstm:32")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    bench = os.path.join(a.build, "bench", "trainbench-bench")
    with open("/proc/loadavg") as f:
        print(f"Load average before: {' '.join(f.read().split()[:3])} ({os.cpu_count()} CPUs)")
    blas = set()
    print("| model | batch | threads | Trainbench train tok/s | PyTorch train tok/s | ratio | Trainbench generate tok/s "
          "| PyTorch generate tok/s | ratio | recurrent GEMM GFLOP/s (1 thread) | of the measured FMA peak |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in a.models.split(","):
        model, batch = spec.split(":")
        for t in a.threads.split(","):
            common = ["--steps", str(a.steps), "--repeats", str(a.repeats), "--batch", batch, "--threads", t,
                      "--model", model, "--data", a.data]
            ours = run([bench, *common, "--warmup", "2", "--eval-images", "16", "--generate", "200"])
            theirs = run([sys.executable, os.path.join(here, "pytorch_lstm_bench.py"), *common, "--warmup", "2",
                          "--generate", "200"])
            peak = ours["fma_peak_gflops_one_thread"]
            g = ours["recurrent_gemm_gflops_one_thread"]
            print(f"| {model} | {batch} | {t} | {ours['train_tokens_per_sec']:,.0f} | {theirs['train_tokens_per_sec']:,.0f} "
                  f"| {ours['train_tokens_per_sec'] / theirs['train_tokens_per_sec']:.2f}x "
                  f"| {ours['generate_tokens_per_sec']:,.0f} | {theirs['generate_tokens_per_sec']:,.0f} "
                  f"| {ours['generate_tokens_per_sec'] / theirs['generate_tokens_per_sec']:.2f}x "
                  f"| {g:.1f} ({ours['recurrent_gemm_shape']}) | {100 * g / peak:.0f}% of {peak:.0f} |", flush=True)
            blas.add(theirs.get("blas", "?"))
    with open("/proc/loadavg") as f:
        print(f"Load average after: {' '.join(f.read().split()[:3])}")
    print(f"PyTorch's BLAS: {'; '.join(sorted(blas))}")
    if any("/blas/libblas" in b for b in blas):
        print("warning: PyTorch ran on the reference BLAS (slow): apt-get install libopenblas0-openmp")


if __name__ == "__main__":
    main()
