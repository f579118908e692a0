#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt that are missing, then configures
# and builds Cleave in build/. Shared by run.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$root/scripts/debian-packages.txt" | grep -v '^$')
missing=()
for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build="${CLEAVE_BUILD_DIR:-$root/build}"

# ONNX Runtime, the runtime of the shared measurements, comes from the npm registry (Debian has no
# package): onnxruntime-node as plugins/ort_profiler/package-lock.json pins it, installed into the
# build folder for the ort profiler plugin. Node.js and npm from Debian when neither is there.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "setup: installing nodejs npm (the ort profiler plugin runs ONNX Runtime in Node.js)"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm
fi
ort="$build/onnxruntime-node"
if ! cmp -s "$root/plugins/ort_profiler/package-lock.json" "$ort/package-lock.json" ||
    [ ! -f "$ort/node_modules/onnxruntime-node/package.json" ]; then
    echo "setup: installing onnxruntime-node into $ort (npm ci)"
    mkdir -p "$ort"
    cp "$root/plugins/ort_profiler/package.json" "$root/plugins/ort_profiler/package-lock.json" "$ort/"
    if ! (cd "$ort" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error); then
        rm -f "$ort/package-lock.json" # tried again next time
        echo "setup: npm ci failed: building without the ort profiler plugin" >&2
    fi
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Paths inside the checkout count relative to it, so that a clone elsewhere (CI's) finds what this
# one compiled in the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && generator=() # an existing build keeps the generator it was made with
cmake -S "$root" -B "$build" "${generator[@]}" "${launcher[@]}" "$@"
cmake --build "$build" --parallel "$(nproc)"
