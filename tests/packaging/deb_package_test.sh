#!/bin/sh
# The .deb: cpack builds it from the build tree, it holds the programs, plugins, desktop file,
# AppStream metainfo, icon and Debian documents, dpkg installs it (into a private root and
# database, so the machine running the test is left alone), the installed cleave, cleave-studio
# --version and cleave profile --backend ort run from it alone, no file in it names a path of the
# machine that built it (the source and build folders), and lintian (when installed) reports no
# errors.
# Usage: deb_package_test.sh BUILD_DIR
set -eu
build=$(cd "$1" && pwd -P)
# The source folder this build was configured from.
source=$(sed -n 's/^Cleave_SOURCE_DIR:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$source" ] || { echo "no Cleave_SOURCE_DIR in $build/CMakeCache.txt"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack -G DEB -B "$work/out" --config "$build/CPackConfig.cmake" > "$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/cleave_*_amd64.deb)
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

dpkg-deb -f "$deb" Package Version Section Depends Maintainer
dpkg-deb -c "$deb" | awk '{print $6}' > "$work/files"
for f in ./usr/bin/cleave ./usr/bin/cleave-dse ./usr/bin/cleave-studio ./usr/bin/cleave-render \
         ./usr/lib/cleave/plugins/libcleave_plugin_opencv_profiler.so \
         ./usr/lib/cleave/plugins/libcleave_plugin_mpi_runner.so \
         ./usr/share/applications/cleave-studio.desktop \
         ./usr/share/metainfo/invalid.cleave.Studio.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/cleave.svg \
         ./usr/share/doc/cleave/copyright ./usr/share/doc/cleave/changelog.gz \
         ./usr/share/man/man1/cleave.1.gz ./usr/share/man/man1/cleave-studio.1.gz \
         ./usr/share/man/man1/cleave-render.1.gz ./usr/share/man/man1/cleave-dse.1.gz \
         ./usr/share/man/man1/cleave-calibrate.1.gz \
         ./usr/share/cleave/examples/clusters/nx8.cluster.json \
         ./usr/share/cleave/examples/example.cleave \
         ./usr/share/cleave/examples/models/resnet101.onnx \
         ./usr/share/cleave/examples/models/squeezenet1_1.onnx.xz \
         ./usr/share/cleave/examples/models/bert_base.onnx.xz \
         ./usr/share/cleave/predictors/xeon-ort-1t.json.xz \
         ./usr/share/cleave/predictors/h100-cudnn-fp16.json.xz \
         ./usr/lib/cleave/plugins/libcleave_plugin_ort_profiler.so \
         ./usr/lib/cleave/onnxruntime-node/ort_session.mjs \
         ./usr/lib/cleave/onnxruntime-node/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1; do
    grep -qx "$f" "$work/files" || { echo "missing from the package: $f"; exit 1; }
done
# Stripped: no debug sections left in the programs.
dpkg-deb -x "$deb" "$work/extracted"
if readelf -S "$work/extracted/usr/bin/cleave" | grep -q '\.debug_info'; then
    echo "usr/bin/cleave is not stripped"; exit 1
fi
# No path of the building machine: an installed program that looked in its build folder would
# run whatever anyone planted there, and __FILE__ or an RPATH would name it. Every file's strings,
# the programs, plugins and libraries included; a path counts where it starts a string or follows
# a character no path holds, so that a short one (/src) does not match inside another (/usr/src).
escape() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }
pattern="(^|[^[:alnum:]_.~/-])($(escape "$source")|$(escape "$build"))(/|\$|[^[:alnum:]_.~-])"
found_paths=0
newline='
'
saved_ifs=$IFS
IFS=$newline # node_modules holds names with spaces
for f in $(find "$work/extracted" -type f | sort); do
    hit=$(strings -a "$f" | grep -E -m 3 "$pattern" || true)
    if [ -n "$hit" ]; then
        echo "${f#"$work/extracted/"} names the building machine's $source or $build:"
        echo "$hit" | cut -c 1-200
        found_paths=1
    fi
done
IFS=$saved_ifs
[ "$found_paths" = 0 ] || exit 1

mkdir -p "$work/root" "$work/admin/info" "$work/admin/updates" "$work/admin/triggers"
touch "$work/admin/status" "$work/admin/available"
dpkg --force-depends --force-not-root --force-script-chrootless \
     --instdir="$work/root" --admindir="$work/admin" -i "$deb" > "$work/dpkg.log" 2>&1 ||
    { cat "$work/dpkg.log"; exit 1; }
dpkg --admindir="$work/admin" -s cleave | grep -qx 'Status: install ok installed' ||
    { echo "dpkg did not install cleave"; exit 1; }
# The start page's example project: its model and cluster, as the project names them, installed.
examples="$work/root/usr/share/cleave/examples"
for f in $(grep -o '"path": "[^"]*"' "$examples/example.cleave" | cut -d'"' -f4); do
    [ -f "$examples/$f" ] || { echo "example.cleave names $f, not installed"; exit 1; }
done
# The installed program costs with the installed predictors, not the source tree's.
predicted=$("$work/root/usr/bin/cleave" predict "$examples/models/resnet101.onnx" --device xeon-ort-1t --json)
case "$predicted" in
    *"\"predictor\": \"gbdt $work/root/usr/share/cleave/predictors/xeon-ort-1t.json.xz\""*) ;;
    *) echo "the installed cleave did not use its installed predictor: $predicted" | head -c 600; exit 1 ;;
esac
# The installed ort profiler runs ONNX Runtime from the package's own onnxruntime-node, not the
# build folder's (it says which in its progress line).
xz -dc "$examples/models/squeezenet1_1.onnx.xz" > "$work/squeezenet1_1.onnx"
profiled=$(env -u CLEAVE_ORT_NODE_DIR "$work/root/usr/bin/cleave" profile "$work/squeezenet1_1.onnx" \
    --backend ort --out "$work/ort.json" --repeats 3 --max-rounds 1 --warmup 1 2>&1) ||
    { echo "the installed cleave could not profile with ort: $profiled"; exit 1; }
case "$profiled" in
    *"($work/root/usr/lib/cleave/onnxruntime-node)"*) ;;
    *) echo "the installed ort profiler did not use the package's onnxruntime-node: $profiled" | head -c 800; exit 1 ;;
esac
# cleave render runs the installed cleave-render beside it.
rendered=$("$work/root/usr/bin/cleave" render graph "$examples/models/resnet101.onnx" --out "$work/graph.svg" --json 2>&1) ||
    { echo "cleave render failed: $rendered"; exit 1; }
[ -s "$work/graph.svg" ] || { echo "cleave render wrote no graph.svg: $rendered"; exit 1; }
# Every subcommand has its page, and it renders.
pages=$(grep -c '^\./usr/share/man/man1/cleave-.*\.1\.gz$' "$work/files")
commands=$("$work/root/usr/bin/cleave" --help | sed -n '/^Subcommands:/,/^$/p' | sed '1d;/^$/d' | grep -vc '^  render ')
# cleave-studio.1 and cleave-render.1 are the two pages beyond the subcommands'.
[ "$pages" -eq $((commands + 2)) ] || { echo "$pages cleave-*.1 pages for $commands subcommands"; exit 1; }
if command -v man > /dev/null; then
    MANWIDTH=80 man -l "$work/root/usr/share/man/man1/cleave-dse.1.gz" > "$work/dse.txt" 2>&1
    grep -q 'CLEAVE-DSE(1)' "$work/dse.txt" && grep -q -- '--cluster' "$work/dse.txt" ||
        { echo "man cleave-dse did not render its page:"; head -20 "$work/dse.txt"; exit 1; }
fi
studio=$(QT_QPA_PLATFORM=offscreen "$work/root/usr/bin/cleave-studio" --version 2>&1) ||
    { echo "the installed cleave-studio --version failed: $studio"; exit 1; }
case "$studio" in *"cleave-studio "*) ;; *) echo "unexpected cleave-studio --version: $studio"; exit 1 ;; esac
version=$("$work/root/usr/bin/cleave" --version)
echo "installed: $version"
case "$version" in "cleave "*) ;; *) echo "unexpected version line"; exit 1 ;; esac

if command -v lintian > /dev/null; then
    lintian --fail-on error "$deb"
else
    echo "lintian not installed: not run"
fi
