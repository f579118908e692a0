#!/usr/bin/env python3
"""Checks a calibrated device against ONNX Runtime timed outside Cleave.

For each model: its end-to-end time from a plain ONNX Runtime session (scripts/time-onnxruntime.mjs,
no profiling, median of --runs) at the device's thread count, against `cleave predict --device ID`.
The models are timed in --rounds rounds, one model after another in each, and each model's time
is its fastest round: on a shared host another tenant's load comes and goes for minutes at a
time and only ever adds time (the calibration keeps the machine's fast state the same way).
With --probe, a small model is timed before and after each model's round, and only rounds whose
two probes both ran within --fast (10%) of the fastest probe of the whole check count: a model
whose rounds all fell in a slow spell gets more, up to --max-rounds, and is marked if it never
had one. Prints per model and per family the error, and the mean absolute percentage error
pooled.

With --hold-out-from DIR, the folder a calibration kept (`cleave calibrate --keep DIR`: its
data.json and models), each checked model is also predicted by a predictor of the device's kind
trained on that data without the model's family (`cleave train --hold-out FAMILY`): the error on
a family the calibration never measured. A family the data does not hold is predicted by the
device's own predictor.

With --step (repeatable: prefill=N, decode=L), each model is a language-model decoder checked at
each step: timed with time-onnxruntime.mjs --prefill N / --decode L and predicted with
`cleave predict --prefill N / --decode L`; the errors are also given per phase and per step.

  scripts/check-calibration.py --device my-pc-ort-1t [--threads 1] [--runs 20] [--rounds 3]
                               [--probe MODEL.onnx [--fast 0.1] [--max-rounds 9]]
                               [--hold-out-from DIR] [--step prefill=128 ...] [--json]
                               MODEL.onnx...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

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
    parser.add_argument("--probe", help="a small model timed around each round (see above)")
    parser.add_argument("--fast", type=float, default=0.1,
                        help="a round counts when both probes ran within this of the fastest")
    parser.add_argument("--max-rounds", type=int, default=None,
                        help="rounds at most per model with --probe (default: 3 x --rounds)")
    parser.add_argument("--hold-out-from", metavar="DIR",
                        help="a calibration's kept folder: also predict each model without its "
                             "family in training")
    parser.add_argument("--step", action="append", default=[],
                        help="a decoder step to check each model at: prefill=N or decode=L")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    for step in args.step:
        phase, _, n = step.partition("=")
        if phase not in ("prefill", "decode") or not n.isdigit():
            parser.error(f"--step {step}: expected prefill=N or decode=L")
    steps = args.step or [None]
    # What is checked: each model at each step.
    items = [(model, step) for model in args.models for step in steps]

    def step_flags(step):
        if not step:
            return []
        phase, _, n = step.partition("=")
        return [f"--{phase}", n]

    spec = json.loads(subprocess.run([args.cleave, "devices", "show", args.device, "--json"],
                                     check=True, capture_output=True, text=True).stdout)
    threads = args.threads or (spec.get("measurement") or {}).get("threads") or 1
    def time_ms(model, runs, step=None):
        timed = subprocess.run(["node", os.path.join(ROOT, "scripts", "time-onnxruntime.mjs"),
                                "--threads", str(threads), "--runs", str(runs)]
                               + step_flags(step) + [model],
                               check=True, capture_output=True, text=True)
        return json.loads(timed.stdout.strip().splitlines()[-1])["median_ms"]

    # Per model, its rounds as (time, slower of the two probes around it; 0 without --probe).
    rounds = {item: [] for item in items}
    probes = []

    def fast_rounds(item):
        fastest = min(probes) if probes else 0
        return [t for t, p in rounds[item] if p <= fastest * (1 + args.fast)]

    max_rounds = max(1, args.rounds) if not args.probe else (
        args.max_rounds or 3 * max(1, args.rounds))
    for done in range(max_rounds):
        for item in items:
            if done >= max(1, args.rounds) and fast_rounds(item):
                continue
            model, step = item
            if not args.probe:
                rounds[item].append((time_ms(model, args.runs, step), 0.0))
                continue
            before = time_ms(args.probe, 20)
            measured = time_ms(model, args.runs, step)
            after = time_ms(args.probe, 20)
            probes += [before, after]
            rounds[item].append((measured, max(before, after)))
    def predict(model, step, predictor=None):
        command = [args.cleave, "predict", model, "--device", args.device, "--json"]
        command += step_flags(step)
        if predictor:
            command += ["--predictor", predictor]
        return json.loads(subprocess.run(command, check=True, capture_output=True,
                                         text=True).stdout)

    held_out = {}  # family -> predictor file trained without it (None: not in the data)
    scratch = tempfile.TemporaryDirectory(prefix="cleave-check-")

    def held_out_predictor(fam, kind):
        if fam not in held_out:
            out = os.path.join(scratch.name, f"{fam}.json.xz")
            trained = subprocess.run(
                [args.cleave, "train", "--data", os.path.join(args.hold_out_from, "data.json"),
                 "--models", os.path.join(args.hold_out_from, "models"), "--device",
                 args.device, "--kind", kind, "--hold-out", fam, "--out", out, "--json"],
                capture_output=True, text=True)
            if trained.returncode == 0:
                held_out[fam] = out
            elif "no run of the family" in trained.stderr:
                held_out[fam] = None
            else:
                sys.exit(f"check-calibration: cleave train --hold-out {fam}: "
                         f"{trained.stderr.strip()}")
        return held_out[fam]

    rows = []
    for item in items:
        model, step = item
        name = os.path.basename(model).removesuffix(".onnx")
        fast = fast_rounds(item)
        measured = min(fast or [t for t, _ in rounds[item]])
        own = predict(model, step)
        predicted = own["total_ms"]
        rows.append({"model": name, "family": family(name), "measured_ms": measured,
                     **({"step": step, "phase": step.partition("=")[0]} if step else {}),
                     "rounds_ms": [t for t, _ in rounds[item]],
                     "probes_ms": [p for _, p in rounds[item]] if args.probe else None,
                     "fast_rounds": len(fast), "predicted_ms": predicted,
                     "error": (predicted - measured) / measured})
        line = ""
        if args.hold_out_from:
            predictor = held_out_predictor(rows[-1]["family"], own["predictor"].split()[0])
            alone = predict(model, step, predictor)["total_ms"] if predictor else predicted
            rows[-1]["family_held_out"] = predictor is not None
            rows[-1]["predicted_held_out_ms"] = alone
            rows[-1]["error_held_out"] = (alone - measured) / measured
            line = (f"  family held out {100 * rows[-1]['error_held_out']:+6.1f}%"
                    f"{'' if predictor else ' (not in the data)'}")
        if not args.json:
            slowest = max(t for t, _ in rounds[item])
            print(f"{name + (' ' + step if step else ''):24s} measured {measured:9.2f} ms (rounds up to "
                  f"{100 * (slowest / measured - 1):4.1f}% slower"
                  f"{'' if fast or not args.probe else ', none in the fast state'})  predicted "
                  f"{predicted:9.2f} ms  {100 * rows[-1]['error']:+6.1f}%{line}", flush=True)

    def mape(rs, key="error"):
        return sum(abs(r[key]) for r in rs) / len(rs)

    families = {}
    for r in rows:
        families.setdefault(r["family"], []).append(r)
    by_family = [{"family": f, "models": len(rs), "mape": mape(rs),
                  **({"mape_held_out": mape(rs, "error_held_out")} if args.hold_out_from else {})}
                 for f, rs in sorted(families.items())]
    groups = {}  # per phase, then per step
    for r in rows:
        if "step" in r:
            groups.setdefault(r["phase"], []).append(r)
            groups.setdefault(r["step"], []).append(r)
    by_step = [{"step": g, "checks": len(rs), "mape": mape(rs),
                "worst": max(abs(r["error"]) for r in rs),
                **({"mape_held_out": mape(rs, "error_held_out")} if args.hold_out_from else {})}
               for g, rs in groups.items()]
    if args.json:
        print(json.dumps({"device": args.device, "threads": threads, "runs": args.runs,
                          "rounds": args.rounds, "probe": args.probe,
                          "fastest_probe_ms": min(probes) if probes else None,
                          "hold_out_from": args.hold_out_from, "models": rows,
                          "families": by_family, "steps": by_step, "mape": mape(rows),
                          **({"mape_held_out": mape(rows, "error_held_out")}
                             if args.hold_out_from else {})}, indent=1))
        return
    for f in by_family:
        print(f"{f['family']:12s} {f['models']:3d} models: MAPE {100 * f['mape']:5.1f}%"
              + (f", family held out {100 * f['mape_held_out']:5.1f}%"
                 if args.hold_out_from else ""))
    for g in by_step:
        print(f"{g['step']:12s} {g['checks']:3d} checks: MAPE {100 * g['mape']:5.1f}%, worst "
              f"{100 * g['worst']:5.1f}%"
              + (f", family held out {100 * g['mape_held_out']:5.1f}%"
                 if args.hold_out_from else ""))
    print(f"{len(rows)} checks, {threads} thread(s): end-to-end MAPE {100 * mape(rows):.1f}%, "
          f"worst {100 * max(abs(r['error']) for r in rows):.1f}%"
          + (f"; families held out {100 * mape(rows, 'error_held_out'):.1f}%"
             if args.hold_out_from else ""))


if __name__ == "__main__":
    sys.exit(main())
