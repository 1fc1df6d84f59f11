# Sourced by the store tests: a small kernel-shaped repository and an empty record tree.
#   mainline: v6.0 .. v6.3 (annotated and lightweight tags), stable branch linux-6.1.y
#   with v6.1.1 (backport of FIX_A, "[ Upstream commit ... ]"), plus commits for every
#   refusal rule. Shas are exported as variables (INTRO, FIX_A, BP_A, FIX_B, FIX_C, ...).
# Requires KCVE. Makes the scratch directory T (removed on exit) unless the sourcing test set
# its own (a T exported by the caller's environment does not count).
: "${KCVE:?KCVE must point at the kcve binary}"
if [ -z "${T:-}" ] || [[ $(declare -p T) == "declare -x"* ]]; then
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
fi
export HOME=$T GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=c@example.org
export KCVE_FROM="Test Sender <sender@example.org>"
unset KCVE_REPO KCVE_INDEX KCVE_TREE
R=$T/linux
V=$T/vulns
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
# commit [-d EPOCH] [-a AUTHOR_EPOCH] MESSAGE [FILE] -> prints the sha
echo 0 > "$T/counter"
commit() {
	local when="" awhen=""
	while [ "${1:-}" = -d ] || [ "${1:-}" = -a ]; do
		if [ "$1" = -d ]; then when=$2; else awhen=$2; fi
		shift 2
	done
	local n=$(($(cat "$T/counter") + 1))
	echo "$n" > "$T/counter"
	when=${when:-$((1710000000 + n * 3600))}
	awhen=${awhen:-$when}
	local f=${2:-drivers/net/f$n.c}
	mkdir -p "$(dirname "$f")"
	echo "$n" >> "$f"
	git add "$f"
	GIT_AUTHOR_DATE="@$awhen +0000" GIT_COMMITTER_DATE="@$when +0000" git commit -q -m "$1"
	git rev-parse HEAD
}
build_repo() {
	git init -q -b master "$R"
	cd "$R"
	commit "init" >/dev/null
	git tag v6.0
	INTRO=$(commit "net: add the buggy thing" net/core/thing.c)
	INTRO2=$(commit "mm: add another buggy thing" mm/other.c)
	git tag -a v6.1 -m "Linux 6.1"
	FIX_A=$(commit "net: fix the buggy thing

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" net/core/thing.c)
	FIX_B=$(commit "mm: fix another buggy thing

Fixes: ${INTRO2:0:12} (\"mm: add another buggy thing\")" mm/other.c)
	FIX_C=$(commit "net: fix the buggy thing harder

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" net/core/thing2.c)
	# committer date 2024-01-01 00:30 UTC, author date 2023-12-31: the id year is 2024
	FIX_Y=$(commit -d 1704069000 -a 1703980000 "net: fix at new year

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" net/core/thing3.c)
	# committer date in 2023: no reserved ids for 2023 in the test tree
	FIX_OLD=$(commit -d 1690000000 "net: fix committed in 2023

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" net/core/thing4.c)
	git tag v6.2
	SAME_INTRO=$(commit "fs: add new feature" fs/new.c)
	SAME_FIX=$(commit "fs: fix new feature

Fixes: ${SAME_INTRO:0:12} (\"fs: add new feature\")" fs/new.c)
	git tag -a v6.3 -m "Linux 6.3"
	UNRELEASED=$(commit "net: fix not released yet

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" net/core/thing5.c)
	git checkout -q -b linux-6.1.y v6.1
	BP_A=$(commit "net: fix the buggy thing

[ Upstream commit $FIX_A ]" net/core/thing.c)
	BP_Y=$(commit "net: fix at new year

[ Upstream commit $FIX_Y ]" net/core/thing3.c)
	git tag v6.1.1
	git checkout -q master
	cd "$T"
}
# a new stable release with a backport of FIX_C (only FIX_C's CVE must change)
stable_release() {
	cd "$R"
	git checkout -q linux-6.1.y
	BP_C=$(commit "net: fix the buggy thing harder

commit $FIX_C upstream." net/core/thing2.c)
	git tag v6.1.2
	git checkout -q master
	cd "$T"
}
build_tree() {
	mkdir -p "$V/cve/published" "$V/cve/reserved" "$V/scripts"
	echo f4215fc3-5b6b-47ff-a258-f7189bd81038 > "$V/scripts/linux.uuid"
}
K() { "$KCVE" --repo "$R" --tree "$V" "$@"; }
# checksum of every file (names + contents) of the tree, .kcve/ excluded
tree_sum() { (cd "$V" && find . -path ./.kcve -prune -o -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
# run a command that must fail with CODE and a one-line message matching RE, tree unchanged
refuse() {
	local code=$1 re=$2
	shift 2
	local before after rc
	before=$(tree_sum)
	set +e
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	after=$(tree_sum)
	[ "$rc" = "$code" ] || fail "'$*' exited $rc, want $code: $(cat "$T/err")"
	[ "$(wc -l < "$T/err")" = 1 ] || fail "'$*' must print one error line: $(cat "$T/err")"
	grep -qE "$re" "$T/err" || fail "'$*' message '$(cat "$T/err")' does not match '$re'"
	[ "$before" = "$after" ] || fail "'$*' changed the tree"
}
# N more released fixes (tag v6.4), shas in MORE_FIXES
more_fixes() {
	cd "$R"
	MORE_FIXES=""
	for i in $(seq 1 "$1"); do
		MORE_FIXES="$MORE_FIXES $(commit "drv$i: fix bug $i

Fixes: ${INTRO:0:12} (\"net: add the buggy thing\")" "drivers/d$i/x.c")"
	done
	git tag v6.4
	cd "$T"
}
