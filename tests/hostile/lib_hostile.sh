# Sourced by the hostile-tree tests (after tests/store/lib_repo.sh): a sentinel directory
# outside the tree whose checksums must never change, and checks of one-line refusals.
# Requires: T, V, fail.
S=$T/outside
sentinel_sum() { (cd "$S" && find . -print0 | sort -z | xargs -0 stat -c '%n %a %s %Y' && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
make_sentinel() {
	mkdir -p "$S/dir"
	echo "do not touch" > "$S/important"
	echo "keep me" > "$S/dir/a"
	echo "keep me too" > "$S/dir/b"
	chmod 600 "$S/important"
	sentinel_sum > "$T/sentinel.sum"
}
check_sentinel() { # LABEL
	sentinel_sum | cmp -s - "$T/sentinel.sum" || fail "$1: a file outside the tree changed: $(sentinel_sum | diff "$T/sentinel.sum" - | head -5)"
}
# exactly one line on stderr
one_line() { # FILE LABEL
	[ "$(wc -l < "$1")" = 1 ] || fail "$2: want one error line, got: $(cat "$1")"
}
one_line_or_none() { # FILE LABEL
	[ "$(wc -l < "$1")" -le 1 ] || fail "$2: want at most one line, got: $(cat "$1")"
}
# no control characters (a name or line quoted from the tree must not split a message)
no_control() { # FILE...
	local f
	for f in "$@"; do
		if LC_ALL=C tr -d '\n\t' < "$f" | LC_ALL=C grep -q '[[:cntrl:]]'; then fail "control characters in output: $(LC_ALL=C grep -m1 '[[:cntrl:]]' "$f" | od -c | head -3)"; fi
	done
}
# only printable text (and newlines/tabs): no bytes of uninitialised memory
printable() { # FILE...
	local f
	for f in "$@"; do
		if LC_ALL=C grep -q '[^[:print:][:space:]]' "$f"; then fail "garbage bytes in output: $(head -c 200 "$f" | od -c | head -3)"; fi
	done
}
# COMMAND fails (non-zero, not a signal) with one stderr line matching RE
refuse_line() { # LABEL RE COMMAND...
	local label=$1 re=$2 rc
	shift 2
	set +e
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	[ "$rc" != 0 ] && [ "$rc" -lt 128 ] || fail "$label: exit $rc, want a refusal: $(cat "$T/err")"
	one_line "$T/err" "$label"
	grep -q -- "$re" "$T/err" || fail "$label: error does not mention '$re': $(cat "$T/err")"
}
# a format-2 journal with the given step lines and a valid checksum (see store/journal.h)
seal_journal() { # STEP...
	python3 - "$@" <<'PY'
import sys
body = b"kcve-journal 2\n" + b"".join(a.encode() + b"\n" for a in sys.argv[1:]) + b"end\n"
h = 0xcbf29ce484222325
for c in body:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
sys.stdout.buffer.write(body + b"sum %016x\n" % h)
PY
}
# The 2 GiB memory bound of the hostile runs: LIMIT is "ulimit -v 2097152" where the binary
# starts under it (not under ASan, whose shadow memory reserves terabytes of address space),
# else ":" with ASan's own malloc_limit_mb/hard_rss_limit_mb of 2 GiB. Run commands as
# (eval "$LIMIT"; exec ...).
memory_bound() {
	if (ulimit -v 2097152 && "$KCVE" --version) > /dev/null 2>&1; then
		LIMIT="ulimit -v 2097152"
	else
		LIMIT=":"
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_limit_mb=2048:hard_rss_limit_mb=2048:allocator_may_return_null=1"
	fi
}
# KIND PATH: make PATH a FIFO, a link to /dev/zero or a 5 GB sparse file (what a bounded reader
# of regular files must refuse or cut without hanging or reading it all)
hostile_file() {
	rm -rf "$2"
	case $1 in
	fifo) mkfifo "$2" ;;
	zero) ln -s /dev/zero "$2" ;;
	sparse) truncate -s 5G "$2" ;;
	esac
}
# the kernel repository R (index built) and the record tree V with CVE-2024-10000 for FIX_A
repo_with_record() {
	build_repo > /dev/null 2>&1
	build_tree
	"$KCVE" --repo "$R" index > /dev/null 2>&1
	K reserve add CVE-2024-10000 > /dev/null
	K create "$FIX_A" CVE-2024-10000 > /dev/null
}
