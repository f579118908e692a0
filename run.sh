#!/usr/bin/env bash
# Installs what is missing, builds, and opens the studio on the bundled example project:
# resnet101 over eight Jetson Xavier NX (examples/clusters/nx8.cluster.json). Arguments replace
# it: ./run.sh MODEL.onnx [--cluster FILE] ...
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
"$root/scripts/setup.sh"
build="${CLEAVE_BUILD_DIR:-$root/build}"
if [ $# -eq 0 ]; then
    set -- --cluster "$root/examples/clusters/nx8.cluster.json" "$build/examples/models/resnet101.onnx"
fi
exec "$build/app/cleave-studio" "$@"
