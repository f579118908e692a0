#!/bin/sh
# The layers stay apart (docs/architecture.md): core includes no Qt and no plugin, the cleave CLI
# includes nothing of the studio and links no Qt library, nor the search's pagmo2.
# Usage: layering_test.sh SOURCE_DIR CLEAVE_EXECUTABLE
set -eu
source_dir=$1
cleave=$2
failed=0

# check DESCRIPTION PATTERN FOLDER: every line of FOLDER's C++ files matching PATTERN is a fault.
check() {
    found=$(grep -rnE --include='*.hpp' --include='*.cpp' "$2" "$source_dir/$3" || true)
    if [ -n "$found" ]; then
        echo "$1:"
        echo "$found" | sed "s|$source_dir/||"
        failed=1
    fi
}
check "core includes Qt" '^[[:space:]]*#[[:space:]]*include[[:space:]]*<Q' core
check "core includes a plugin" '^[[:space:]]*#[[:space:]]*include[[:space:]]*"plugins/' core
check "the cleave CLI includes the studio" '^[[:space:]]*#[[:space:]]*include[[:space:]]*"ui/' app/cleave

qt=$(readelf -d "$cleave" | grep NEEDED | grep -E 'libQt' || true)
if [ -n "$qt" ]; then
    echo "$cleave links Qt:"
    echo "$qt"
    failed=1
fi
# Every command pays for what cleave loads at start: the search's pagmo2 (with TBB and Boost) is
# cleave-dse's alone.
search=$(readelf -d "$cleave" | grep NEEDED | grep -E 'libpagmo|libtbb|libboost' || true)
if [ -n "$search" ]; then
    echo "$cleave links the search's libraries (they belong to cleave-dse):"
    echo "$search"
    failed=1
fi
[ "$failed" = 0 ] && echo "layers apart: core (no Qt, no plugin), app/cleave (no ui/, no Qt library, no pagmo2)"
exit "$failed"
