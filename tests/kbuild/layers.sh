#!/bin/bash
# The layering inside src/lib/kbuild (docs/kbuild.md, "Source layout"), checked on the includes:
# - paths and cond are leaves: they include no kbuild header but their own;
# - ppline reads preprocessor lines with the path helpers only;
# - the make interpreter and the .config reader know nothing of the tree evaluator's state.
set -euo pipefail
: "${KCVE_SRC:?}"
dir=$KCVE_SRC/src/lib/kbuild
fail=0
allow() { # file allowed-kbuild-headers...
    local f=$1; shift
    local inc
    while read -r inc; do
        local ok=0
        for a in "$@"; do [ "$inc" = "$a" ] && ok=1; done
        [ $ok = 1 ] || { echo "FAIL: src/lib/kbuild/$f includes kbuild/$inc (allowed: ${*:-none})"; fail=1; }
    done < <(sed -n 's|^#include "kbuild/\([^"]*\)".*|\1|p' "$dir/$f")
}
for f in paths.c paths.h; do allow "$f" paths.h; done
for f in cond.c cond.h; do allow "$f" cond.h; done
for f in ppline.c ppline.h; do allow "$f" paths.h ppline.h; done
for f in make_eval.c make_expand.c make_vars.c config.c kbuild_int.h; do
    allow "$f" kbuild.h kbuild_int.h cond.h
done
[ $fail -eq 0 ] && echo "ok: kbuild layers"
exit $fail
