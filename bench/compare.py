#!/usr/bin/python3
"""Runs Trainbench and PyTorch side by side on this machine and prints the ratio table.

  /usr/bin/python3 bench/compare.py [--build build] [--steps 60] [--repeats 3] [--models a,b] [--threads 1,2]
                                    [--isa LEVEL] [--native build-native] [--device opencl:0 [--torch-device cuda]]

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
    a = ap.parse_args()
    bench = os.path.join(a.build, "bench", "trainbench-bench")
    common = ["--data", a.data, "--steps", str(a.steps), "--repeats", str(a.repeats)]
    ours_extra = (["--profile"] if a.profile else []) + (["--isa", a.isa] if a.isa else [])
    rows = []
    for model in a.models.split(","):
        for t in a.threads.split(","):
            ours = run([bench, "--model", model, "--threads", t] + common + ours_extra)
            if a.native:
                native = run([os.path.join(a.native, "bench", "trainbench-bench"), "--model", model, "--threads", t] +
                             common + ours_extra)
                ours["native_train"] = native["train_samples_per_sec"]
                ours["native_eval"] = native["eval_samples_per_sec"]
            torch = run(["/usr/bin/python3", os.path.join(here, "pytorch_bench.py"), "--model", model,
                         "--threads", t] + common)
            rows.append((ours, torch))
            print(f"measured {model} threads={t}", file=sys.stderr, flush=True)
        if a.device:
            ours = run([bench, "--model", model, "--device", a.device] + common)
            ours["threads"] = a.device
            torch = run(["/usr/bin/python3", os.path.join(here, "pytorch_bench.py"), "--model", model, "--device",
                         a.torch_device, "--threads", a.threads.split(",")[-1]] + common)
            rows.append((ours, torch))
            print(f"measured {model} on {a.device}", file=sys.stderr, flush=True)
    print(f"Trainbench ({rows[0][0]['kernels']}) vs {rows[0][1]['framework']}, batch 128, "
          f"{a.steps} steps x {a.repeats} repeats (median), same machine, one run\n")
    hdr = ("| model | threads or device | train samples/s | PyTorch | ratio | s/epoch (59904) | PyTorch | "
           "eval samples/s | PyTorch | ratio | peak RSS MB | PyTorch |")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for o, p in rows:
        print(f"| {o['model']} | {o['threads']} | {o['train_samples_per_sec']:.0f} | {p['train_samples_per_sec']:.0f} | "
              f"{o['train_samples_per_sec'] / p['train_samples_per_sec']:.2f} | {o['seconds_per_epoch']:.1f} | "
              f"{p['seconds_per_epoch']:.1f} | {o['eval_samples_per_sec']:.0f} | {p['eval_samples_per_sec']:.0f} | "
              f"{o['eval_samples_per_sec'] / p['eval_samples_per_sec']:.2f} | {o['peak_rss_mb']:.0f} | "
              f"{p['peak_rss_mb']:.0f} |")
    if a.native:
        print("\nportable build vs -march=native build (train and eval samples/s; ratio > 1: portable faster)\n")
        print("| model | threads | portable train | native train | ratio | portable eval | native eval | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for o, _ in rows:
            if "native_train" not in o:
                continue
            print(f"| {o['model']} | {o['threads']} | {o['train_samples_per_sec']:.0f} | {o['native_train']:.0f} | "
                  f"{o['train_samples_per_sec'] / o['native_train']:.3f} | {o['eval_samples_per_sec']:.0f} | "
                  f"{o['native_eval']:.0f} | {o['eval_samples_per_sec'] / o['native_eval']:.3f} |")
    if a.profile:
        for o, _ in rows:
            if "profile" not in o:
                continue
            print(f"\nper-layer ms/step, {o['model']}, {o['threads']} thread(s): forward / backward")
            for l in o["profile"]:
                print(f"  {l['layer']:<24} {l['forward_ms']:8.2f} {l['backward_ms']:8.2f}")


if __name__ == "__main__":
    main()
