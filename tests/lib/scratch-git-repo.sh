#!/usr/bin/env bash
# Sourced (not run) by the tests that build a kernel-shaped repository with plain git, so that
# every such test gets the same isolated, reproducible setup: a scratch directory $T removed on
# exit, fixed identities and dates (same commit ids on every run), no user/system git config,
# no KCVE_* from the caller, fail MESSAGE, and an empty repository $R (branch master) as the
# current directory.  commit MESSAGE adds a new file and prints the new commit's sha.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME=$T GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=c@example.org
unset KCVE_REPO KCVE_INDEX KCVE_TREE
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$T/linux
git init -q -b master "$R"
cd "$R"
echo 0 > "$T/counter"
commit() { # runs in $(...), so the counter lives in a file
	local n
	n=$(($(cat "$T/counter") + 1))
	echo "$n" > "$T/counter"
	echo "$n" > "f$n"
	git add "f$n"
	GIT_AUTHOR_DATE="@$((1700000000 + n)) +0000" GIT_COMMITTER_DATE="@$((1700000000 + n)) +0000" \
		git commit -q -m "$1"
	git rev-parse HEAD
}
