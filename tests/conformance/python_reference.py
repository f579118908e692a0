#!/usr/bin/python3
# The Python onnx figures that docs/conformance.md sets beside Cleave's: the same comparison as
# onnx_conformance (inferred graph-output shapes against test_data_set_0/output_i.pb, models with
# a non-tensor output left out) done with onnx.load + onnx.shape_inference.infer_shapes.
# Usage: python_reference.py [FOLDER] [--json FILE]; needs Debian's python3-onnx.
import argparse
import json
import os

import onnx
from onnx import shape_inference


def output_dims(model):
    """Each graph output's dims (a symbolic dim as its name, an empty one as '?'), or None."""
    dims = []
    for output in model.graph.output:
        tensor = output.type.tensor_type
        if not output.type.HasField("tensor_type") or not tensor.HasField("shape"):
            dims.append(None)
            continue
        dims.append([d.dim_value if d.HasField("dim_value") else (d.dim_param or "?")
                     for d in tensor.shape.dim])
    return dims


def compare(path, folder):
    model = onnx.load(path)
    outputs = model.graph.output
    result = {"compared": all(o.type.HasField("tensor_type") for o in outputs)}
    if not result["compared"]:
        return result
    recorded = []
    for i in range(len(outputs)):
        tensor = onnx.TensorProto()
        with open(os.path.join(folder, "test_data_set_0", f"output_{i}.pb"), "rb") as f:
            tensor.ParseFromString(f.read())
        recorded.append(list(tensor.dims))
    result["recorded"] = recorded
    for mode in ("declared", "reinferred"):
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        if mode == "reinferred":
            del copy.graph.value_info[:]
            for output in copy.graph.output:
                output.type.tensor_type.ClearField("shape")
        result[mode] = output_dims(shape_inference.infer_shapes(copy))
        result[mode + "_match"] = result[mode] == recorded
    return result


def main():
    parser = argparse.ArgumentParser(
        description="Python onnx beside onnx_conformance: inferred output shapes against the "
                    "recorded outputs of ONNX conformance models.")
    parser.add_argument("folder", nargs="?", default="/usr/share/libonnx-testdata/data")
    parser.add_argument("--json", metavar="FILE", help="write the per-model results here")
    args = parser.parse_args()

    results = {}
    for folder, _, files in sorted(os.walk(args.folder)):
        if "model.onnx" in files:
            name = os.path.relpath(folder, args.folder)
            results[name] = compare(os.path.join(folder, "model.onnx"), folder)
    compared = [r for r in results.values() if r["compared"]]
    print(f"{len(results)} models, {len(compared)} with tensor outputs; match: "
          f"{sum(r['declared_match'] for r in compared)} with declared shapes kept, "
          f"{sum(r['reinferred_match'] for r in compared)} re-inferred")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
