#!/bin/sh
# The docs hold together: every relative link of README.md and src/feroce/doc/*.md points to a
# file that exists, every page of src/feroce/doc/ is in its index (src/feroce/doc/README.md), and
# the architecture picture's source parses.  Then a broken link and a page missing from the
# index are planted in a copy, which the checks must catch.
#   doc-links-test.sh REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/lib.sh"
root=$1
work=$2

# links_ok TREE: prints each relative link that points nowhere; succeeds when there is none.
links_ok() {
    tree=$1
    broken=0
    for page in "$tree"/README.md "$tree"/src/feroce/doc/*.md; do
        dir=$(dirname "$page")
        # ](target) of markdown links and images, without #anchor; not http(s):, mailto: or #only
        for target in $(grep -o '](\([^)]*\))' "$page" | sed 's/^](\(.*\))$/\1/; s/#.*//' |
            grep -v '^[a-z]*:' | grep -v '^$' | sort -u); do
            if [ ! -e "$dir/$target" ]; then
                echo "$page: link to $target, which does not exist" >&2
                broken=1
            fi
        done
    done
    return $broken
}

# indexed TREE: prints each page of the doc folder that its index does not link; succeeds when
# there is none.
indexed() {
    doc=$1/src/feroce/doc
    missing=0
    for page in "$doc"/*.md; do
        name=$(basename "$page")
        [ "$name" = README.md ] && continue
        if ! grep -q "](${name})" "$doc/README.md"; then
            echo "$name is not in src/feroce/doc/README.md: add a row to its readers' group" >&2
            missing=1
        fi
    done
    return $missing
}

check "every link of the docs points to a file" links_ok "$root"
check "every doc page is in the index" indexed "$root"
if command -v dot >/dev/null 2>&1; then
    check "architecture.dot parses" sh -c "dot -Tcanon '$root/src/feroce/doc/architecture.dot' >/dev/null"
fi

# the checks catch what they are for
rm -rf "$work"
mkdir -p "$work/src/feroce"
cp "$root/README.md" "$work/"
cp -r "$root/src/feroce/doc" "$work/src/feroce/doc"
echo "see [nowhere](no-such-page.md)" >> "$work/src/feroce/doc/switch.md"
if links_ok "$work" 2>/dev/null; then bad "a broken link is not caught"; else ok; fi
rm -rf "$work/src/feroce/doc" && cp -r "$root/src/feroce/doc" "$work/src/feroce/doc"
echo "# new" > "$work/src/feroce/doc/unlisted-page.md"
if indexed "$work" 2>/dev/null; then bad "a page missing from the index is not caught"; else ok; fi
rm -rf "$work"
finish
