#!/usr/bin/python3
"""Writes what AutoDiCE's own front end makes of a mapping, as a fixture for export_test.

Usage (Debian's python3-onnx 1.12; AUTODICE is a checkout of parrotsky/AutoDiCE):
  PYTHONHASHSEED=0 tests/data/autodice/autodice-fixture.py AUTODICE MODEL.onnx MAPPING.json \
      HOST,HOST,... OUT_FOLDER

The model is copied with its initializers also listed as graph inputs (AutoDiCE drops any
initializer that is not), passed through AutoDiCE's format_onnx, then
Interface(model=..., mappings=MAPPING, platforms=HOSTS). Kept in OUT_FOLDER: AutoDiCE's
sender.json, receiver.json and rankfile as it wrote them, the mapping, and sub_models.json: per
key the sub-model's inputs (getInputlayers, sorted: AutoDiCE lists a set), its graph outputs and
AutoDiCE's output buffers (computingnodes[key].outbuffs, which it never writes to a file).
"""
import json
import os
import shutil
import sys
import tempfile
import types

import onnx
from onnx import helper

autodice, model_path, mapping_path, hosts, out = sys.argv[1:6]
sys.path.insert(0, os.path.join(os.path.abspath(autodice), "tools/distributed/vertical"))
sys.modules.setdefault("psutil", types.ModuleType("psutil"))  # imported, never used
from interface import Interface  # noqa: E402
from onnx_split import format_onnx, getInputlayers, load_onnx  # noqa: E402

out = os.path.abspath(out)
mapping_path = os.path.abspath(mapping_path)
model = onnx.load(model_path)
listed = {i.name for i in model.graph.input}
for init in model.graph.initializer:
    if init.name not in listed:
        model.graph.input.append(helper.make_tensor_value_info(init.name, init.data_type, init.dims))
work = tempfile.mkdtemp()
os.chdir(work)
os.mkdir("models")
onnx.save(model, "model.onnx")
formatted = format_onnx("model.onnx")
with open(mapping_path) as f:
    mappings = json.load(f)
interface = Interface(model=formatted, mappings=mappings, platforms=hosts.split(","))
os.makedirs(out, exist_ok=True)
for name in ("sender.json", "receiver.json", "rankfile"):
    shutil.copy(os.path.join("models", name), os.path.join(out, name))
shutil.copy(mapping_path, os.path.join(out, "mapping.json"))
sub_models = {}
for key in mappings:
    sub = os.path.join("models", key + ".onnx")
    sub_models[key] = {
        "inputs": sorted(getInputlayers(sub)),
        "outputs": [o.name for o in load_onnx(sub).output if o.name in interface.outputs],
        "output_buffers": interface.computingnodes[key].outbuffs,
    }
with open(os.path.join(out, "sub_models.json"), "w") as f:
    json.dump(sub_models, f, indent=1)
    f.write("\n")
shutil.rmtree(work)
