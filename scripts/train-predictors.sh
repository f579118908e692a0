#!/usr/bin/env bash
# Rebuilds the predictors shipped in resources/predictors/ from the shared ONNX Runtime Xeon data:
# one gbdt predictor per thread count (xeon-ort-1t ... xeon-ort-16t), xz-compressed.
# Usage: scripts/train-predictors.sh DATA.json[.xz] MODELS_DIR [CLEAVE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: train-predictors.sh DATA MODELS_DIR [CLEAVE]}
models=${2:?usage: train-predictors.sh DATA MODELS_DIR [CLEAVE]}
cleave=${3:-$root/build/app/cleave}
out=$root/resources/predictors
mkdir -p "$out"
for threads in 1 2 4 8 16; do
    device=xeon-ort-${threads}t
    tmp=$(mktemp "$out/.$device.XXXXXX")
    "$cleave" train --data "$data" --models "$models" --device "$device" --kind gbdt --out "$tmp"
    xz -9 --stdout "$tmp" > "$tmp.xz"
    rm "$tmp"
    mv "$tmp.xz" "$out/$device.json.xz"
done
