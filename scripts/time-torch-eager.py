#!/usr/bin/env python3
"""Times torchvision models in PyTorch eager on a CUDA GPU, batch 1, fp32 and fp16.

Writes the format of ../shared/data/cuda-h100.json.xz (docs/predictors.md): one run per model,
input size and dtype with `e2e_ms` (--runs passes timed with CUDA events after --warmup
passes) and, for fp32 at the export size, `kernels`: every GPU kernel of one pass (name, us)
from torch.profiler. The weights are those torchvision initialises (no download): timings of
dense kernels do not depend on the values.

--sweeps N times everything N times, models in reverse order every other sweep, and keeps per
run the sweep with the lowest median (a busy host only ever slows a run down); `sweep_medians_ms`
lists every sweep's median of that run, so the spread between sweeps stays on record.
--export DIR also writes each model as ONNX (TorchScript exporter, opset 17, BatchNormalization
kept as its own node: the zoo's export) with its weights in one external file, which it then
deletes: the graph alone is small and has every initializer's shape.

  scripts/time-torch-eager.py --out h100.json [--sizes 224,32,64] [--sweeps 3]
      [--export DIR [--export-models A,B]] MODEL...
"""
import argparse
import json
import os
import platform
import sys
import time

import torch
import torchvision

EXPORT_SIZE = {"inception_v3": 299}
FIXED_SIZE = {"vit_b_16", "vit_b_32", "vit_l_16", "maxvit_t", "swin_t", "swin_s", "swin_v2_t"}


def build(name):
    kwargs = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        kwargs["aux_logits"] = False
        kwargs["init_weights"] = True
    return torchvision.models.get_model(name, **kwargs).eval()


def host_cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def time_passes(model, x, warmup, runs):
    with torch.inference_mode():
        for _ in range(warmup):
            model(x)
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            model(x)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    return times


def kernels_of_one_pass(model, x):
    from torch.profiler import ProfilerActivity, profile
    with torch.inference_mode():
        model(x)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            model(x)
            torch.cuda.synchronize()
    events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    events.sort(key=lambda e: e.time_range.start)
    return [{"name": e.name, "us": round(e.time_range.elapsed_us(), 3)} for e in events]


def export(name, model, size, folder):
    path = os.path.join(folder, name + ".onnx")
    x = torch.randn(1, 3, size, size)
    # PRESERVE: BatchNormalization stays its own node, as eager runs it (EVAL folds it into the
    # convolution before it).
    torch.onnx.export(model, x, path, opset_version=17, dynamo=False,
                      training=torch.onnx.TrainingMode.PRESERVE,
                      input_names=["input"], output_names=["output"])
    import onnx
    m = onnx.load(path)
    onnx.save_model(m, path, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=name + ".weights", size_threshold=0)
    os.remove(os.path.join(folder, name + ".weights"))


def write(path, header, runs):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(dict(header, runs=runs), f)
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--sizes", default="224,32,64,96,128,160,192",
                   help="input sizes; the export size stands for 224")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--sweeps", type=int, default=1)
    p.add_argument("--export", default=None)
    p.add_argument("--export-models", default=None, help="comma list (default: all)")
    p.add_argument("--deadline", type=float, default=0, help="seconds; stop starting runs after")
    p.add_argument("models", nargs="+")
    a = p.parse_args()
    t0 = time.time()
    dev = torch.device("cuda")
    header = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
              "cudnn": torch.backends.cudnn.version(), "torchvision": torchvision.__version__,
              "host": host_cpu(), "host_cores": os.cpu_count()}
    sizes = [int(s) for s in a.sizes.split(",")]
    models = {}
    for name in a.models:
        try:
            models[name] = build(name)
        except Exception as e:  # a model this torchvision lacks
            print(f"{name}: not built: {e}", file=sys.stderr)
    if a.export:
        os.makedirs(a.export, exist_ok=True)
        chosen = a.export_models.split(",") if a.export_models else list(models)
        for name, model in models.items():
            if name not in chosen:
                continue
            s = time.time()
            try:
                export(name, model, EXPORT_SIZE.get(name, 224), a.export)
                print(f"exported {name} in {time.time() - s:.1f} s", flush=True)
            except Exception as e:
                print(f"{name}: not exported: {e}", file=sys.stderr, flush=True)
    sweeps = {}  # (model, size, dtype) -> every sweep's run
    for sweep in range(a.sweeps):
        order = list(models) if sweep % 2 == 0 else list(reversed(list(models)))
        for name in order:
            base = EXPORT_SIZE.get(name, 224)
            for dtype in (torch.float32, torch.float16):
                model = models[name].to(dev, dtype)
                for size in sizes:
                    size = base if size == 224 else size
                    if name in FIXED_SIZE and size != base:
                        continue
                    if a.deadline and time.time() - t0 > a.deadline:
                        print("deadline reached", flush=True)
                        write(a.out, header, merged(sweeps))
                        return
                    x = torch.randn(1, 3, size, size, device=dev, dtype=dtype)
                    try:
                        e2e = time_passes(model, x, a.warmup, a.runs)
                    except Exception as e:
                        print(f"{name} {size} {dtype}: {e}", file=sys.stderr, flush=True)
                        continue
                    run = {"model": name, "input_shape": [1, 3, size, size],
                           "dtype": str(dtype).replace("torch.", ""), "e2e_ms": e2e}
                    if dtype == torch.float32 and size == base and sweep == 0:
                        try:
                            run["kernels"] = kernels_of_one_pass(model, x)
                        except Exception as e:
                            print(f"{name}: no kernels: {e}", file=sys.stderr, flush=True)
                    sweeps.setdefault((name, size, run["dtype"]), []).append(run)
                    print(f"sweep {sweep + 1} {name} {run['dtype']} {size}: "
                          f"{median(e2e):.3f} ms ({time.time() - t0:.0f} s)", flush=True)
                models[name] = model.to("cpu", torch.float32)
                torch.cuda.empty_cache()
            write(a.out, header, merged(sweeps))


def median(values):
    return sorted(values)[len(values) // 2]


def merged(sweeps):
    """Per run the sweep with the lowest median, the first sweep's kernel list, every median."""
    runs = []
    for found in sweeps.values():
        fastest = min(found, key=lambda r: median(r["e2e_ms"]))
        run = dict(fastest, sweep_medians_ms=[round(median(r["e2e_ms"]), 4) for r in found])
        if "kernels" in found[0]:
            run["kernels"] = found[0]["kernels"]
        runs.append(run)
    return runs


if __name__ == "__main__":
    main()
