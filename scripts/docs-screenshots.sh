#!/usr/bin/env bash
# Takes the screenshots of docs/images/workflow: the studio's workflow test (tests/ui/workflow_test)
# run under Xvfb on the xcb platform, once at 1366x768 and once at 1920x1080, each step's window
# saved as <step>-<size>.png. Needs xvfb and xauth (apt-get install xvfb xauth), optionally
# imagemagick, and a build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${CLEAVE_BUILD_DIR:-$root/build}"
out="$root/docs/images/workflow"
mkdir -p "$out"
for size in 1366x768 1920x1080; do
    xvfb-run -a -s "-screen 0 ${size}x24" env QT_QPA_PLATFORM=xcb CLEAVE_SCREENSHOT_DIR="$out" \
        CLEAVE_SCREENSHOT_SIZE="$size" "$build/tests/ui/workflow_test" >/dev/null
done
# 256 colours keep the PNGs small; the UI's flat colours survive it.
if command -v convert >/dev/null; then
    for f in "$out"/*.png; do convert "$f" -colors 256 "PNG8:$f"; done
fi
ls -l "$out"
