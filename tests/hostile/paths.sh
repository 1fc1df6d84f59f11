#!/usr/bin/env bash
# Issue 35: every option that takes a path, fed a FIFO, a link to /dev/zero and a 5 GB sparse
# file. The options are read from each command's --help (the option declarations, as
# tools/gen-cli-options reads them for docs/cli.md): metavars FILE, DIR, KSRC, TREE, OLD,
# LINUX.git, CONFIG, and the global --repo, --tree, --index. Each needs a context line below
# (the rest of a command line that reaches the read of that path): a new path option without one
# fails the test. Each run ends within 30 s and 2 GiB, without a signal or a sanitizer report,
# with at most one line on stderr (an error: exactly one).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
. "$KCVE_SRC/tests/hostile/lib35.sh"
. "$KCVE_SRC/tests/store/lib_repo.sh"
repo_with_record
mv "$T/vulns" "$T/rtree"
V=$T/rtree
. "$KCVE_SRC/tests/check/patches_fixture.sh"
D=$T/kcve.db
S=$T/tree
C=$T/cfg
printf 'CONFIG_FOO=y\n' > "$C"
AUTHOR="T <t@example.org>"
VEC="CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"

# "COMMAND OPTION" -> the arguments, @ standing for the hostile path
declare -A ctx=(
	["check --git"]="check --tree $V --git @"
	["check --git-cache"]="check --tree $V --git $R --git-cache @ --ids"
	["check --config"]="check --db $D --version 6.0.2 --source $S --config @"
	["check --source"]="check --db $D --version 6.0.2 --source @"
	["check --files"]="check --db $D --version 6.0.2 --files @"
	["check --build"]="check --db $D --build @"
	["check --root"]="check --db $D --running --root @"
	["check --system-map"]="check --db $D --version 6.0.2 --system-map @"
	["check --batch"]="check --db $D --batch @"
	["check --kev"]="check --db $D --version 6.0.2 --kev @"
	["check --epss"]="check --db $D --version 6.0.2 --epss @"
	["check --tree"]="check --tree @ --version 6.0.2"
	["check --db"]="check --db @ --version 6.0.2"
	["check --since"]="check --db $D --version 6.0.2 --since @"
	["check --since-vex"]="check --db $D --version 6.0.2 --since $D --openvex --author|$AUTHOR|--since-vex @"
	["check --sbom"]="check --db $D --version 6.0.2 --openvex --author|$AUTHOR|--sbom @"
	["create --batch"]="--repo $R --tree $V create --dry-run --batch @"
	["cvss --rationale"]="--tree $V cvss CVE-2024-10000 $VEC --rationale @"
	["db --tree"]="db build --tree @ -o $T/o.db"
	["db --source"]="db build --tree $T/vulns -o $T/o.db --source @"
	["db --db"]="db files --db @ --config $C"
	["db --config"]="db files --db $D --config @"
	["db --patches"]="db build --tree $T/vulns -o $T/o.db --patches @"
	["db --repo"]="db build --tree $T/vulns -o $T/o.db --repo @"
	["dispute --maintainers"]="--tree $V dispute --maintainers @"
	["dyad --batch"]="--repo $R dyad --batch @"
	["kbuild --config"]="kbuild --config @ --source $S"
	["kbuild --source"]="kbuild --config $C --source @"
	["kbuild --build"]="kbuild --build @ --list"
	["kbuild --files-from"]="kbuild --config $C --source $S --files-from @"
	["maintainers --root"]="maintainers --root @ drivers/foo/foo.c"
	["maintainers --maintainers"]="maintainers --maintainers @ drivers/foo/foo.c"
	["publish --config"]="--tree $V publish --dry-run --config @"
	["remote --config"]="remote --config @ quota"
	["reserve --config"]="--tree $V reserve --remote --year 2024 --count 1 --config @"
	["record --reference"]="--repo $R record --cve CVE-2024-10000 --reference @ $FIX_A"
	["record --message"]="--repo $R record --cve CVE-2024-10000 --message @ $FIX_A"
	["record --cvss"]="--repo $R record --cve CVE-2024-10000 --cvss @ $FIX_A"
	["report --tree"]="report --html $T/r.html --tree @"
	["report --db"]="report --html $T/r.html --db @"
	["report --check-json"]="report --html $T/r.html --db $D --check-json @"
	["review --review-dir"]="--repo $R review --score --review-dir @"
	["review --model"]="review --classify --model @ $C"
	["global --repo"]="--repo @ dyad $FIX_A"
	["global --tree"]="--tree @ reserve list"
	["global --index"]="--repo $R --index @ dyad $FIX_A"
)

# the path options of every command, from its --help
opts=()
for c in $(sed -n 's/^KCVE_CMD(\([a-z_]*\),.*/\1/p' "$KCVE_SRC/src/cli/commands.def" | tr _ -); do
	while read -r o; do opts+=("$c $o"); done < <("$KCVE" "$c" --help 2>/dev/null | sed -n '/^Options:/,/^$/p' |
		sed -n -E 's/^  (--[a-z-]+) (FILE|DIR|KSRC|TREE|OLD|LINUX\.git|CONFIG)( .*)?$/\1/p')
done
for o in $("$KCVE" --help 2>&1 | sed -n '/^Global options/,/^$/p' | sed -n -E 's/^  (--[a-z-]+) (FILE|DIR)( .*)?$/\1/p'); do
	opts+=("global $o")
done
# and the commands whose operands are files (usage lines "FILE..."), by hand
for k in "operand review --classify" "operand maintainers --json" "operand db info"; do
	opts+=("$k")
done
ctx["operand review --classify"]="review --classify @"
ctx["operand maintainers --json"]="maintainers --maintainers $C --json @"
ctx["operand db info"]="db info @"
[ ${#opts[@]} -ge 40 ] || fail "only ${#opts[@]} path options found in --help: $(printf '%s; ' "${opts[@]}")"

n=0 bad=0
for key in "${opts[@]}"; do
	[ -n "${ctx[$key]:-}" ] || fail "no context for the path option '$key': add one to tests/hostile/paths.sh"
	for kind in fifo zero sparse; do
		H=$T/hostile.$kind
		hostile_file $kind "$H"
		args=()
		IFS='|' read -r -a parts <<<"${ctx[$key]}"
		for i in "${!parts[@]}"; do
			if [ $((i % 2)) = 1 ]; then args+=("${parts[$i]}"); continue; fi # a quoted part
			for w in ${parts[$i]}; do [ "$w" = @ ] && args+=("$H") || args+=("$w"); done
		done
		(run35 "$key $kind" "$KCVE" "${args[@]}"
		 [ "$(wc -l < "$T/err")" -le 1 ] || fail "$key $kind: more than one line on stderr: $(cat "$T/err")"
		 [ "$RC" = 0 ] || [ "$(wc -l < "$T/err")" = 1 ] || fail "$key $kind: exit $RC without an error line"
		 no_control "$T/err") || bad=$((bad + 1))
		n=$((n + 1))
	done
	rm -f "$H"
done
[ $bad = 0 ] || fail "$bad of $n runs failed (above)"
echo "paths: ok ($n runs, ${#opts[@]} options)"
