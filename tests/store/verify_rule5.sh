#!/usr/bin/env bash
# kcve verify, docs/spec/record.md "Consistency rules" rule (5): the fix / introduction versions told by a record's
# semver data must equal its CPE versionEndExcluding / versionStartIncluding values.
# Hand-made records: two that satisfy every rule, two that break only rule (5) (their .sha1
# differs from the .dyad fix only to keep them clear of the one-CVE-per-commit rule).
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset KCVE_TREE KCVE_REPO KCVE_INDEX
D=$T/vulns/cve/published/2024
mkdir -p "$D"
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
C=cccccccccccccccccccccccccccccccccccccccc E=eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
G=1111111111111111111111111111111111111111
# record ID FIXSHA DYAD-LINES SEMVER-PRODUCT-DEFAULT SEMVER-VERSIONS GIT-VERSIONS CPE-MATCHES
record() {
	local id=$1 fix=$2 dyad=$3 def=$4 sv=$5 gv=$6 cpe=$7
	: > "$D/$id"
	printf '%s' "$fix" > "$D/$id.sha1"
	printf '# test\n%s\n' "$dyad" > "$D/$id.dyad"
	printf 'From: x@example.org\nSubject: %s: test\n\nbody\n' "$id" > "$D/$id.mbox"
	cat > "$D/$id.json" <<J
{"containers": {"cna": {
  "affected": [
    {"product": "Linux", "vendor": "Linux", "defaultStatus": "unaffected", "versions": [$gv]},
    {"product": "Linux", "vendor": "Linux", "defaultStatus": "$def", "versions": [$sv]}],
  "cpeApplicability": [{"nodes": [{"operator": "OR", "negate": false, "cpeMatch": [$cpe]}]}],
  "references": [{"url": "https://git.kernel.org/stable/c/$fix"}]}},
 "cveMetadata": {"cveId": "$id", "state": "PUBLISHED"}}
J
}
m() { # CPE match START END ("" = omitted)
	local s=${1:+, \"versionStartIncluding\": \"$1\"} e=${2:+, \"versionEndExcluding\": \"$2\"}
	printf '{"vulnerable": true, "criteria": "cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*"%s%s}' "$s" "$e"
}
aff='{"version": "6.1", "status": "affected"}'
below='{"version": "0", "lessThan": "6.1", "status": "unaffected", "versionType": "semver"}'
ocff='{"version": "6.2", "lessThanOrEqual": "*", "status": "unaffected", "versionType": "original_commit_for_fix"}'
git1="{\"version\": \"$A\", \"lessThan\": \"$B\", \"status\": \"affected\", \"versionType\": \"git\"}"
# good 1: mainline 6.1 -> 6.2 (affected default)
record CVE-2024-0001 $B "6.1:$A:6.2:$B" affected "$aff, $below, $ocff" "$git1" "$(m 6.1 6.2)"
# good 2: stable-only 5.10.215 -> 5.10.218 plus an unfixed 5.15.95 (unaffected default);
# the unfixed-branch ceiling 5.16 has fewer dots than 5.15.95, so it is no fix version
git2="{\"version\": \"$C\", \"lessThan\": \"$E\", \"status\": \"affected\", \"versionType\": \"git\"},
 {\"version\": \"$G\", \"status\": \"affected\", \"versionType\": \"git\"},
 {\"version\": \"5.15.95\", \"lessThan\": \"5.16\", \"status\": \"affected\", \"versionType\": \"semver\"}"
st='{"version": "5.10.215", "lessThan": "5.10.218", "status": "affected", "versionType": "semver"}'
record CVE-2024-0002 $E "5.10.215:$C:5.10.218:$E
5.15.95:$G:0:0" unaffected "$st" "$git2" "$(m 5.10.215 5.10.218), $(m 5.15.95 "")"
out=$("$KCVE" --tree "$T/vulns" verify) || fail "verify of good records: $out"
[ "$out" = "2 CVEs checked, 0 problems" ] || fail "good records: $out"

# bad 3: the semver data names a stable fix 6.1.5 that no CPE match ends at
stfix='{"version": "6.1.5", "lessThanOrEqual": "6.1.*", "status": "unaffected", "versionType": "semver"}'
record CVE-2024-0003 dddddddddddddddddddddddddddddddddddddddd "6.1:$A:6.2:$B" affected "$aff, $below, $stfix, $ocff" "$git1" "$(m 6.1 6.2)"
# bad 4: an extra CPE start 5.4 with no semver introduction, and a missing typeless point
record CVE-2024-0004 ffffffffffffffffffffffffffffffffffffffff "6.1:$A:6.2:$B" affected "$below, $ocff" "$git1" "$(m 6.1 6.2), $(m 5.4 "")"
set +e
"$KCVE" --tree "$T/vulns" verify > "$T/out"
rc=$?
set -e
cat "$T/out"
[ "$rc" = 17 ] || fail "verify exit $rc with rule-5 violations"
cat > "$T/want" <<W
CVE-2024-0003: semver-cpe-fixes: in semver fix versions but not CPE versionEndExcluding: 6.1.5; in CPE versionEndExcluding but not semver fix versions: -
CVE-2024-0004: semver-cpe-intros: in semver intro versions but not CPE versionStartIncluding: -; in CPE versionStartIncluding but not semver intro versions: 5.4 6.1
4 CVEs checked, 2 problems
W
diff "$T/want" "$T/out" || fail "rule-5 problems differ"
echo "verify rule 5: OK"
