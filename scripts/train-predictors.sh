#!/usr/bin/env bash
# Rebuilds the predictors shipped in resources/predictors/, xz-compressed:
# - from the shared ONNX Runtime Xeon data, one gbdt predictor per thread count (xeon-ort-1t ...
#   xeon-ort-16t);
# - from the shared H100 data and this project's own H100 runs (examples/data/torch-eager-h100,
#   end-to-end times of PyTorch eager; their models beyond the zoo beside them), one launch-bound
#   predictor per precision (h100-cudnn-fp32, h100-cudnn-fp16) over the pytorch-eager kernels;
# - from the Xeon data and this machine's OpenCV and ONNX Runtime runs (examples/data:
#   opencv-xeon-2cpu, ort-xeon-2cpu-1t, ort-xeon-2cpu-2t), the base model of cross-device
#   predictors (cross-device-cpu), which `cleave calibrate` and `cleave train --kind
#   cross-device` adapt to a device from its own kernels. More measured CPU
#   devices join it as DEVICE=DATA in CROSS_DEVICE_DATA (space-separated; a "models" folder
#   beside each data file is searched first, as `cleave calibrate --keep` writes them).
# Usage: scripts/train-predictors.sh XEON_DATA.json[.xz] H100_DATA.json[.xz] MODELS_DIR [CLEAVE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: train-predictors.sh XEON_DATA H100_DATA MODELS_DIR [CLEAVE]"
xeon=${1:?$usage}
h100=${2:?$usage}
models=${3:?$usage}
cleave=${4:-$root/build/app/cleave}
out=$root/resources/predictors
mkdir -p "$out"

# train DEVICE MODELS_DIR ARGS...: trains into a temporary file, compresses it, then replaces the
# shipped one.
train() {
    local device=$1 dir=$2
    shift 2
    local tmp
    tmp=$(mktemp "$out/.$device.XXXXXX")
    "$cleave" train --models "$dir" --device "$device" "$@" --out "$tmp"
    xz -9 --stdout "$tmp" > "$tmp.xz"
    rm "$tmp"
    mv "$tmp.xz" "$out/$device.json.xz"
}

for threads in 1 2 4 8 16; do
    train "xeon-ort-${threads}t" "$models" --data "$xeon" --kind gbdt
done

# The zoo's models and the H100 runs' own, unpacked, in one folder.
eager_models=$(mktemp -d)
trap 'rm -rf "$eager_models"' EXIT
for f in "$models"/*.onnx; do
    ln -s "$(realpath "$f")" "$eager_models/"
done
for f in "$root"/examples/data/torch-eager-h100-models/*.onnx.xz; do
    xz -dc "$f" > "$eager_models/$(basename "$f" .xz)"
done
for precision in fp32 fp16; do
    train "h100-cudnn-$precision" "$eager_models" --data "$h100" \
        "$root/examples/data/torch-eager-h100.json.xz" --kind launch-bound --rules pytorch-eager
done

# The cross-device base: every CPU device measured with kernel times.
tmp=$(mktemp "$out/.cross-device-cpu.XXXXXX.json.xz")
# shellcheck disable=SC2086 # CROSS_DEVICE_DATA is a list of DEVICE=DATA words
"$cleave" train-cross-device --data "$xeon" "this-machine=$root/examples/data/opencv-xeon-2cpu.json.xz" \
    "this-machine=$root/examples/data/ort-xeon-2cpu-1t.json.xz" \
    "this-machine=$root/examples/data/ort-xeon-2cpu-2t.json.xz" \
    ${CROSS_DEVICE_DATA:-} --models "$models" --out "$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out/cross-device-cpu.json.xz"
