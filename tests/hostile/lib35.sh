# Sourced by the issue 35 hostile tests (after tests/lib/check-env.sh): the 2 GiB memory bound
# of lib_hostile.sh and one run helper. A case must end within 30 s, without a signal or a
# sanitizer report; its stderr is in $T/err, stdout in $T/out, the exit code in RC.
. "$KCVE_SRC/tests/hostile/lib_hostile.sh"
memory_bound 2>/dev/null
run35() { # LABEL COMMAND...
	local label=$1 t0=$SECONDS
	shift
	set +e
	(eval "$LIMIT"; exec timeout -s KILL 30 "$@") > "$T/out" 2> "$T/err.all" < /dev/null
	RC=$?
	set -e
	# the fixtures' own warnings (an old database, a branch before the CNA) are not the case's
	grep -v "days old (built\|end of life when the kernel CNA began\|the age of the record tree .* is unknown" "$T/err.all" > "$T/err" || true
	[ "$RC" != 137 ] || fail "$label: hung or too slow (over 30 s)"
	[ "$RC" -lt 128 ] || fail "$label: killed by a signal (exit $RC): $(tail -5 "$T/err")"
	! grep -q "Sanitizer\|runtime error:" "$T/err.all" || fail "$label: sanitizer report: $(grep -m3 "Sanitizer\|runtime error\|SUMMARY" "$T/err.all")"
	echo "ok $label (exit $RC, $((SECONDS - t0)) s): $(head -1 "$T/err")"
}
# the last run: exit code in the list, stderr exactly one line matching RE
want() { # LABEL "RC..." RE
	local ok=0 c
	for c in $2; do [ "$RC" = "$c" ] && ok=1; done
	[ $ok = 1 ] || fail "$1: exit $RC, want one of $2: $(cat "$T/err")"
	[ "$(wc -l < "$T/err")" = 1 ] || fail "$1: want one line on stderr, got: $(cat "$T/err")"
	grep -q -- "$3" "$T/err" || fail "$1: stderr does not say '$3': $(cat "$T/err")"
	no_control "$T/err"
}
