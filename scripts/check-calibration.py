#!/usr/bin/env python3
"""Checks a calibrated device against ONNX Runtime timed outside Cleave.

For each model: its end-to-end time from a plain ONNX Runtime session (scripts/time-onnxruntime.mjs,
no profiling, median of --runs) at the device's thread count, against `cleave predict --device ID`.
The models are timed in --rounds rounds, one model after another in each, and each model's time
is its fastest round: on a shared host another tenant's load comes and goes for minutes at a
time and only ever adds time (the calibration keeps the machine's fast state the same way).
Prints per model and per family the error, and the mean absolute percentage error pooled.

  scripts/check-calibration.py --device my-pc-ort-1t [--threads 1] [--runs 20] [--rounds 3]
                               [--json] MODEL.onnx...
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = ["alexnet", "vgg", "resnext", "resnet", "densenet", "mobilenet", "mnasnet",
            "shufflenet", "squeezenet", "efficientnet", "regnet", "maxvit", "vit", "bert"]


def family(name):
    for f in FAMILIES:
        if name.startswith(f):
            return f
    return re.split(r"[_0-9]", name)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", required=True)
    parser.add_argument("--threads", type=int, default=None,
                        help="threads ONNX Runtime may use (default: the device's)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cleave", default=os.path.join(ROOT, "build", "app", "cleave"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()

    spec = json.loads(subprocess.run([args.cleave, "devices", "show", args.device, "--json"],
                                     check=True, capture_output=True, text=True).stdout)
    threads = args.threads or (spec.get("measurement") or {}).get("threads") or 1
    rounds = {model: [] for model in args.models}
    for _ in range(max(1, args.rounds)):
        for model in args.models:
            timed = subprocess.run(["node", os.path.join(ROOT, "scripts", "time-onnxruntime.mjs"),
                                    "--threads", str(threads), "--runs", str(args.runs), model],
                                   check=True, capture_output=True, text=True)
            rounds[model].append(json.loads(timed.stdout.strip().splitlines()[-1])["median_ms"])
    rows = []
    for model in args.models:
        name = os.path.basename(model).removesuffix(".onnx")
        measured = min(rounds[model])
        predicted = json.loads(subprocess.run(
            [args.cleave, "predict", model, "--device", args.device, "--json"],
            check=True, capture_output=True, text=True).stdout)["total_ms"]
        rows.append({"model": name, "family": family(name), "measured_ms": measured,
                     "rounds_ms": rounds[model], "predicted_ms": predicted,
                     "error": (predicted - measured) / measured})
        if not args.json:
            print(f"{name:24s} measured {measured:9.2f} ms (rounds up to "
                  f"{100 * (max(rounds[model]) / measured - 1):4.1f}% slower)  predicted "
                  f"{predicted:9.2f} ms  {100 * rows[-1]['error']:+6.1f}%", flush=True)
    mape = sum(abs(r["error"]) for r in rows) / len(rows)
    if args.json:
        print(json.dumps({"device": args.device, "threads": threads, "runs": args.runs,
                          "rounds": args.rounds,
                          "models": rows, "mape": mape}, indent=1))
    else:
        print(f"{len(rows)} models, {threads} thread(s): end-to-end MAPE {100 * mape:.1f}%, "
              f"worst {100 * max(abs(r['error']) for r in rows):.1f}%")


if __name__ == "__main__":
    sys.exit(main())
