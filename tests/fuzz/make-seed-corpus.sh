#!/usr/bin/env bash
# Fills a folder with seed inputs for onnx_import_fuzz: every ONNX conformance model of
# Debian's libonnx-testdata (small, varied, valid), named by content so reruns add nothing.
set -euo pipefail
out=${1:?usage: make-seed-corpus.sh OUT_DIR}
mkdir -p "$out"
find /usr/share/libonnx-testdata/data -name model.onnx -size -64k | while read -r model; do
    cp "$model" "$out/$(sha1sum "$model" | cut -c1-16).onnx"
done
echo "$(ls "$out" | wc -l) seeds in $out"
