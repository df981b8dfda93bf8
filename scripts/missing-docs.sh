#!/bin/sh
# Counts public declarations without a doc comment, per module under Sources/.
# A declaration is a line whose first keyword (after attributes such as @inlinable) is `public`
# or `open`; it is documented when the nearest line above it that is not an attribute or blank
# is a `///` comment or the end of a `/** */` block. Enum cases of public enums are not counted.
# Usage: scripts/missing-docs.sh [SOURCES_DIR] [-v]   (-v lists each undocumented declaration)
usage() {
  cat <<'TEXT'
usage: scripts/missing-docs.sh [SOURCES_DIR] [-v]

Counts, per module (each folder of SOURCES_DIR, default Sources), the public and open
declarations without a doc comment: a declaration is documented when the nearest line above it
that is not an attribute or blank is a `///` comment or the end of a `/** */` block. Public
extensions, imports and the cases of public enums are not counted.

  -v    also list each undocumented declaration as FILE:LINE: declaration

Exit status: 0 (it reports; it does not judge), 2 for a usage error.
TEXT
}
dir=Sources
verbose=
for arg in "$@"; do
    case "$arg" in
        -h|--help|help) usage; exit 0 ;;
        -v) verbose=-v ;;
        -*) echo "missing-docs.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) dir=$arg ;;
    esac
done
[ -d "$dir" ] || { echo "missing-docs.sh: $dir is not a directory (see --help)" >&2; exit 2; }
for module in "$dir"/*/; do
    name=$(basename "$module")
    find "$module" -name '*.swift' | sort | xargs awk -v verbose="$verbose" -v module="$name" '
        FNR == 1 { previous = "" }
        {
            line = $0
            sub(/^[ \t]+/, "", line)
            bare = line
            while (bare ~ /^@[A-Za-z_]+(\(.*\))?[ \t]+(public|open)/) sub(/^@[A-Za-z_]+(\([^()]*(\([^()]*\))?[^()]*\))?[ \t]+/, "", bare)
            if (bare ~ /^(public|open)[ \t(]/ && bare !~ /^public[ \t]+extension/ && bare !~ /^public[ \t]+import/) {
                total++
                if (previous !~ /^\/\/\// && previous !~ /\*\/$/) {
                    missing++
                    if (verbose == "-v") print FILENAME ":" FNR ": " line
                }
            }
            if (line != "" && line !~ /^(@[A-Za-z_]+(\(.*\))?[ \t]*)+$/) previous = line
        }
        END { printf "%-16s %4d of %4d public declarations without a doc comment\n", module, missing + 0, total + 0 }'
done
