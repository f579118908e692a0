#!/usr/bin/env bash
# Installs what is missing, builds, and opens the studio on the bundled example project
# (examples/example.cleave, copied beside the unpacked models): resnet101 over eight Jetson Xavier
# NX (examples/clusters/nx8.cluster.json). Arguments replace it: ./run.sh MODEL.onnx [--cluster
# FILE] ... or ./run.sh PROJECT.cleave
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
"$root/scripts/setup.sh"
build="${CLEAVE_BUILD_DIR:-$root/build}"
if [ $# -eq 0 ]; then
    set -- "$build/examples/example.cleave"
fi
exec "$build/app/cleave-studio" "$@"
