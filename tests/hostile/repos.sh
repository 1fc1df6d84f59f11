#!/usr/bin/env bash
# The hostile-repository corpus: a small kernel-shaped repository whose objects are rewritten
# by mkpack.py (delta cycles, self-deltas, bad offsets, size bombs, huge declared sizes, deep
# chains), alternates that loop or repeat, FIFOs and links in objects/info, shallow files,
# grafts, replace refs and a merge with 70,000 parents. Each goes through `index`,
# `check --git` and `check --tree` on a record tree that is a git checkout with the same
# damage. Expected each time: no crash or sanitizer report, done within 30 s, memory bounded
# (ulimit -v 2 GiB, or for an ASan build, whose shadow memory needs terabytes of address
# space, ASan's own malloc_limit_mb/hard_rss_limit_mb of 2 GiB), and a clear one-line
# "kcve:" error or warning.
. "$(dirname "$0")/setup29.sh"
MKPACK=$HERE/mkpack.py
git -C "$V" init -q -b main && git -C "$V" add -A && git -C "$V" commit -q -m records
git -C "$R" gc -q --prune=now
cp -a "$R" "$T/linux.pristine"
cp -a "$V" "$T/vulns.pristine"
HEADC=$(git -C "$R" rev-parse "v6.3^{commit}")
PARENT=$(git -C "$R" rev-parse "v6.3^{commit}~1")
VHEAD=$(git -C "$V" rev-parse HEAD)
VTREE=$(git -C "$V" rev-parse HEAD^{tree})

memory_bound

# LABEL WANT(error|warn|any) COMMAND...: within 30 s, no signal or sanitizer report, and with
# WANT=error a non-zero exit with one kcve: line, WANT=warn a kcve: line mentioning RE_WARN
run() {
	[ -z "${HOSTILE_TRACE:-}" ] || echo "+ $*" >&2
	local label=$1 want=$2 rc t0=$SECONDS
	shift 2
	set +e
	(eval "$LIMIT"; exec timeout -s KILL 30 "$@") > "$T/out" 2> "$T/err"
	rc=$?
	RC=$rc
	set -e
	[ $((SECONDS - t0)) -le 30 ] && [ "$rc" != 137 ] || fail "$label: hung (over 30 s)"
	[ "$rc" -lt 128 ] || fail "$label: killed by a signal (exit $rc): $(tail -5 "$T/err")"
	! grep -q "Sanitizer\|runtime error:" "$T/err" || fail "$label: sanitizer report: $(grep -m3 "Sanitizer\|runtime error" "$T/err")"
	case $want in
	error)
		[ "$rc" != 0 ] || fail "$label: exit 0, want an error"
		grep -q '^kcve: ' "$T/err" || fail "$label: no kcve: message: $(head -3 "$T/err")"
		[ "$(grep -vc '^kcve: warning' "$T/err")" -le 1 ] || fail "$label: more than one error line: $(cat "$T/err")"
		;;
	warn:*)
		grep -qi -- "${want#warn:}" "$T/err" || fail "$label: no warning about ${want#warn:} (exit $rc): $(head -3 "$T/err")"
		;;
	esac
	echo "ok $label (exit $rc, $((SECONDS - t0)) s): $(head -1 "$T/err")"
}

fresh() {
	rm -rf "$R" "$V"
	cp -a "$T/linux.pristine" "$R"
	cp -a "$T/vulns.pristine" "$V"
	rm -f "$R/.git/kcve-index.sqlite"*
}
# the three readers of one damaged pair (kernel repository R, record tree V)
# (check --tree reads only the checkout's HEAD commit, for the records' age: a warning there)
three() { # LABEL WANT [tree]
	run "$1: index" "$2" "$KCVE" --repo "$R" index
	run "$1: check --git" "$2" "$KCVE" check --tree "$V" --git "$R" --ids
	# the kernel repository's damage is named, not a bare "missing object"
	[ "$2" != error ] || grep -q "^kcve: error: .*$R.*\(damaged\|declares\|alternates\|regular file\)" "$T/err" ||
		fail "$1: check --git does not say what is wrong with $R: $(cat "$T/err")"
	local w=$2
	[ -z "${3:-}" ] || w="warn:cannot read the HEAD"
	run "$1: check --tree (git checkout)" "$w" "$KCVE" check --tree "$V" --version 6.1.1
}

for mode in cycle self ofsself badofs hugesize bomb deep; do
	fresh
	python3 "$MKPACK" "$R/.git" "$mode" "$HEADC" "$PARENT"
	python3 "$MKPACK" "$V/.git" "$mode" "$VHEAD" "$VTREE"
	three "$mode" error tree
done

# alternates: the same directory listed 12 times, a loop, a FIFO, a link to /dev/zero
fresh
cp -a "$R/.git/objects" "$T/shared.objects"
for i in $(seq 12); do echo "$T/shared.objects"; echo "$T/shared.objects/../shared.objects"; done > "$R/.git/objects/info/alternates"
run "alternates x24 (one directory): index" any "$KCVE" --repo "$R" index
[ "$RC" = 0 ] || fail "one alternate listed 24 times: exit $RC"
echo "$R/.git/objects" > "$R/.git/objects/info/alternates"
echo "$V/.git/objects" > "$V/.git/objects/info/alternates"
three "alternates: itself" error tree
mkdir -p "$T/alt1/info" "$T/alt2/info"
echo "$T/alt2" > "$T/alt1/info/alternates"
echo "$T/alt1" > "$T/alt2/info/alternates"
echo "$T/alt1" > "$R/.git/objects/info/alternates"
cp "$R/.git/objects/info/alternates" "$V/.git/objects/info/alternates"
three "alternates loop" error tree
rm "$R/.git/objects/info/alternates" "$V/.git/objects/info/alternates"
mkfifo "$R/.git/objects/info/alternates" "$V/.git/objects/info/alternates"
three "alternates FIFO" error tree
rm "$R/.git/objects/info/alternates" "$V/.git/objects/info/alternates"
ln -s /dev/zero "$R/.git/objects/info/alternates"
ln -s /dev/zero "$V/.git/objects/info/alternates"
three "alternates -> /dev/zero" error tree

# ancestry rewrites: a warning each time
fresh
echo "$PARENT" > "$R/.git/shallow"
run "shallow: check --git" warn:shallow "$KCVE" check --tree "$V" --git "$R" --ids
run "shallow: check --git --strict" error "$KCVE" check --tree "$V" --git "$R" --ids --strict
[ "$RC" = 21 ] || fail "shallow: --strict exit $RC, want 21"
run "shallow: index" warn:shallow "$KCVE" --repo "$R" index
fresh
mkdir -p "$R/.git/info" && echo "$HEADC" > "$R/.git/info/grafts"
run "grafts: check --git" warn:grafts "$KCVE" check --tree "$V" --git "$R" --ids
run "grafts: index" warn:grafts "$KCVE" --repo "$R" index
fresh
git -C "$R" replace "$HEADC" "$PARENT"
run "replace: check --git" warn:replace "$KCVE" check --tree "$V" --git "$R" --ids
run "replace: index" warn:replace "$KCVE" --repo "$R" index

# a merge with 70,000 parents (the same commit repeated: git stores what it is given)
fresh
{
	echo "tree $(git -C "$R" rev-parse HEAD^{tree})"
	for i in $(seq 70000); do echo "parent $PARENT"; done
	echo "author A <a@example.org> 1720000000 +0000"
	echo "committer A <a@example.org> 1720000000 +0000"
	echo
	echo "huge merge"
} > "$T/merge"
M=$(git -C "$R" hash-object -t commit -w --literally "$T/merge")
git -C "$R" update-ref refs/heads/master "$M"
git -C "$R" tag -f v6.5 "$M" > /dev/null
run "70,000 parents: index" error "$KCVE" --repo "$R" index
echo "all hostile repositories handled"
