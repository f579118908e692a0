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
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && generator=() # an existing build keeps the generator it was made with
cmake -S "$root" -B "$build" "${generator[@]}" "${launcher[@]}" "$@"
cmake --build "$build" --parallel "$(nproc)"
