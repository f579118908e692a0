#!/usr/bin/env bash
# Fills a folder with seed inputs for onnx_import_fuzz: every ONNX conformance model of Debian's
# libonnx-testdata (1,072 models under 8 KB, node tests for most operators), ResNet-18 with
# its weights over 64 KB turned into graph inputs (a real network small enough to mutate quickly
# that still holds payloads the importer separates), and the inputs that once crashed the importer
# (regressions/). Files are named by content, so reruns add nothing. Needs libonnx-testdata,
# xz-utils and python3-onnx (scripts/debian-packages.txt).
set -euo pipefail
out=${1:?usage: make-seed-corpus.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
add() { cp "$1" "$out/$(sha1sum "$1" | cut -c1-16).onnx"; }

find /usr/share/libonnx-testdata/data -name model.onnx | while read -r model; do add "$model"; done
for model in "$here"/regressions/*.onnx; do add "$model"; done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
xz -dc "$here/../../examples/models/resnet18.onnx.xz" >"$work/resnet18.onnx"
/usr/bin/python3 - "$work/resnet18.onnx" "$work/resnet18-light.onnx" <<'EOF'
import sys
import onnx
from onnx import helper

model = onnx.load(sys.argv[1])
graph = model.graph
for t in [t for t in graph.initializer if len(t.raw_data) > 65536]:
    graph.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    graph.initializer.remove(t)
onnx.save(model, sys.argv[2])
EOF
add "$work/resnet18-light.onnx"
echo "$(find "$out" -type f | wc -l) seeds in $out"
