#!/usr/bin/env bash
# Installs what is missing, builds, and opens the studio on the bundled example model.
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
"$root/scripts/setup.sh"
build="${CLEAVE_BUILD_DIR:-$root/build}"
exec "$build/app/cleave-studio" "${@:-$build/examples/models/resnet18.onnx}"
