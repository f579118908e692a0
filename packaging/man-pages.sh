#!/bin/sh
# cleave(1) and one manual page per subcommand (cleave-dse(1), cleave-calibrate(1) ...) by
# help2man from `cleave --help` and `cleave COMMAND --help`; cleave(1) lists the others under
# SEE ALSO. The subcommands are read from cleave's own help, so no list can fall behind it.
# `render` is cleave-render's (cleave-render(1)).
# Usage: man-pages.sh CLEAVE OUT_DIR VERSION SUMMARY
set -eu
cleave=$1
out=$2
version=$3
summary=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

"$cleave" --help | sed -n '/^Subcommands:/,/^$/p' | sed '1d;/^$/d' > "$work/commands"
[ -s "$work/commands" ] || { echo "man-pages.sh: no subcommands in '$cleave --help'" >&2; exit 1; }
printf '[SEE ALSO]\n' > "$work/see-also"
while read -r name description; do
    [ "$name" = render ] && continue
    wrapper="$work/cleave-$name"
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$cleave" "$name" > "$wrapper"
    chmod +x "$wrapper"
    help2man --no-info --section=1 --version-string="cleave-$name $version" --name="$description" \
        --output="$work/cleave-$name.1" "$wrapper"
    gzip -9n -c "$work/cleave-$name.1" > "$out/cleave-$name.1.gz"
    printf '.BR cleave\\-%s (1),\n' "$name" >> "$work/see-also"
done < "$work/commands"
printf '.BR cleave\\-render (1),\n.BR cleave\\-studio (1)\n' >> "$work/see-also"
help2man --no-info --section=1 --version-string="cleave $version" --name="$summary" \
    --include="$work/see-also" --output="$work/cleave.1" "$cleave"
gzip -9n -c "$work/cleave.1" > "$out/cleave.1.gz"
