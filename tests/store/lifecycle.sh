#!/usr/bin/env bash
# The life of CVE ids on a synthetic kernel repository and record tree:
# reserve -> reserve-for -> create (+ bind the held id) -> a new stable release lands ->
# update changes only the affected CVE -> reject -> return, and every refusal rule (message,
# exit code, tree unchanged).
set -euo pipefail
. "$(dirname "$0")/lib_repo.sh"
build_repo
build_tree
export KCVE_NOW=1718000000 # 2024-06-10: fixed clock for notes and the EOL table

# ---- reserve ----
K reserve add CVE-2024-10001 CVE-2024-10002 CVE-2024-10003 CVE-2024-10004 CVE-2024-10005 CVE-2024-10006 >/dev/null
[ -f "$V/cve/reserved/2024/CVE-2024-10003" ] && [ ! -s "$V/cve/reserved/2024/CVE-2024-10003" ] || fail "placeholder"
# a rerun converges: an id already reserved is reported, not an error
out=$(K reserve add CVE-2024-10002) || fail "reserve add of a reserved id failed"
expect "$out" "CVE-2024-10002 already reserved" "rerun of reserve add"
refuse 2 "not a CVE id, CVE-24-1" K reserve add CVE-24-1

# ---- reserve-for: the first free id is held, the note kept in the reserved file ----
out=$(K reserve-for --requester reporter@example.org --summary "uaf in thing, fix pending")
expect "$out" "CVE-2024-10001 is held for reporter@example.org" "reserve-for"
grep -q '^Held for: reporter@example.org$' "$V/cve/reserved/2024/CVE-2024-10001" || fail "held note"
grep -q '^Summary: uaf in thing, fix pending$' "$V/cve/reserved/2024/CVE-2024-10001" || fail "held summary"
K reserve list > "$T/list" 2>/dev/null
grep -q '^CVE-2024-10001 held Held for: reporter@example.org;' "$T/list" || fail "list held: $(cat "$T/list")"
grep -q '^CVE-2024-10002 free$' "$T/list" || fail "list free"
refuse 2 "requester EMAIL is required" K reserve-for --summary x

# ---- create: the first FREE id of the committer year; the held one is skipped ----
out=$(K create "${FIX_A:0:12}")
expect "$out" "CVE-2024-10002 is now allocated for commit ${FIX_A:0:12} (\"net: fix the buggy thing\")" "create"
P=$V/cve/published/2024
for ext in "" .sha1 .dyad .json .mbox; do [ -f "$P/CVE-2024-10002$ext" ] || fail "missing $ext"; done
[ ! -e "$V/cve/reserved/2024/CVE-2024-10002" ] || fail "placeholder not moved"
expect "$(cat "$P/CVE-2024-10002.sha1")" "$FIX_A" ".sha1 (no newline)"
grep -q "^6.1:$INTRO:6.1.1:$BP_A$" "$P/CVE-2024-10002.dyad" || fail "dyad: $(cat "$P/CVE-2024-10002.dyad")"
grep -q '^Subject: CVE-2024-10002: net: fix the buggy thing$' "$P/CVE-2024-10002.mbox" || fail "mbox subject"
grep -q '^From: Test Sender <sender@example.org>$' "$P/CVE-2024-10002.mbox" || fail "mbox from"
# bind the held id
out=$(K create "$FIX_C" CVE-2024-10001)
expect "$out" "CVE-2024-10001 is now allocated for commit ${FIX_C:0:12} (\"net: fix the buggy thing harder\") [held id bound]" "bind"
grep -q '^Held for: reporter@example.org$' "$P/CVE-2024-10001" || fail "note must move along"
# year = committer year (UTC), not author year: FIX_Y was authored 2023-12-31, committed 2024
out=$(K create "$FIX_Y")
case "$out" in CVE-2024-10003\ *) ;; *) fail "committer year: $out" ;; esac
K verify >/dev/null || fail "verify after create: $(K verify)"
grep -q "^CVE-2024-10001 is assigned to git id $FIX_C$" <<< "$(K search "${FIX_C:0:8}")" || fail "search new"

# ---- refusals: message, exit code, tree unchanged ----
refuse 14 "commit ${FIX_A:0:12} already has a CVE \(CVE-2024-10002, published\)" K create "$FIX_A"
refuse 14 "the mainline commit of ${FIX_A:0:12} already has a CVE \(CVE-2024-10002" K create "$BP_A"
refuse 19 "not in any released kernel \(no CVEs for unfixed issues\)" K create "$UNRELEASED"
refuse 8 "." K create "$SAME_FIX"
refuse 15 "no reserved ids for 2023" K create "$FIX_OLD"
refuse 14 "id is not reserved \(published\), CVE-2024-10002" K create "$FIX_B" CVE-2024-10002
refuse 7 "." K create 0123456789abcdef0123
refuse 2 "force needs --reason" K create --force "$FIX_B"
# supported branches are data: releases.json lists mainline 6.3 and longterm 6.1 only
cat > "$T/releases.json" <<'JSON'
{"latest_stable": {"version": "6.3"},
 "releases": [
  {"iseol": false, "version": "6.4-rc2", "moniker": "mainline", "source": null},
  {"iseol": false, "version": "6.3", "moniker": "stable", "source": null},
  {"iseol": false, "version": "6.1.2", "moniker": "longterm", "source": null},
  {"iseol": true, "version": "5.4.300", "moniker": "longterm", "source": null},
  {"iseol": false, "version": "next-20240610", "moniker": "linux-next", "source": null}
 ]}
JSON
expect "$(K branches import "$T/releases.json")" "4 branches imported into scripts/kcve-branches" "import"
grep -q '^6.1 longterm 6.1.2 0$' "$V/scripts/kcve-branches" || fail "branches file"
K branches list > "$T/bl"
grep -q '^5.4 .* unsupported$' "$T/bl" || fail "iseol branch: $(cat "$T/bl")"
grep -q '^6.1 .* supported$' "$T/bl" || fail "6.1 supported"
# FIX_B only landed in 6.2 (not listed, older than the mainline branch): refused
refuse 20 "only lands on branches no longer supported \(6.2; supported: 6.4, 6.3, 6.1\)" K create "$FIX_B"
: > "$T/empty.json" # an empty file (/dev/null is a device: the bounded reader refuses it)
refuse 13 "releases.json is not JSON" K branches import "$T/empty.json"
# the CNA team may force it, the reason is recorded in the id's file
out=$(K create --force --reason "exploited in the wild" "$FIX_B")
id_b=${out%% *}
grep -q '^Forced: exploited in the wild$' "$P/$id_b" || fail "forced reason"
# the EOL table overrides: 6.1 past its end of life
echo "6.1 2024-01-01" > "$V/scripts/kcve-eol"
grep -q '^6.1 .* unsupported$' <<< "$(K branches list)" || fail "eol table"
rm "$V/scripts/kcve-eol"

# ---- a new stable release: update rewrites only the CVE whose fix was backported ----
stable_release
cp -a "$V" "$T/before"
K update > "$T/upd"
cat "$T/upd"
expect "$(grep -c ': updated' "$T/upd")" 1 "one CVE updated"
grep -q '^CVE-2024-10001: updated dyad json mbox$' "$T/upd" || fail "updated: $(cat "$T/upd")"
grep -q "^6.1:$INTRO:6.1.2:$BP_C$" "$P/CVE-2024-10001.dyad" || fail "new pair"
for f in CVE-2024-10002.dyad CVE-2024-10002.json CVE-2024-10002.mbox CVE-2024-10003.json; do
	cmp -s "$T/before/cve/published/2024/$f" "$P/$f" || fail "$f must not change"
done
# nothing new: nothing rewritten (another sender does not count as a change)
before=$(tree_sum)
out=$(K update --from "Other Person <other@kernel.org>")
expect "$(echo "$out" | tail -1)" "4 checked, 0 updated, 0 failed" "idle update"
expect "$(tree_sum)" "$before" "idle update must not touch the tree"
out=$(K update -j 2)
expect "$(echo "$out" | tail -1)" "4 checked, 0 updated, 0 failed" "idle update, 2 workers"
expect "$(tree_sum)" "$before" "parallel idle update must not touch the tree"
grep -q '^4 checked' <<< "$(K update CVE-2024-10001 2024 | tail -1)" || fail "update targets"
# an edited input file (newer than the .json) is picked up although the pairs did not change
printf 'A better description of the issue.\n' > "$P/CVE-2024-10003.message"
touch -d '+2 seconds' "$P/CVE-2024-10003.message"
expect "$(K update | grep ': updated')" "CVE-2024-10003: updated json mbox" "edited .message"
grep -q 'A better description of the issue.' "$P/CVE-2024-10003.json" || fail ".message not used"
# --full re-renders everything and still finds nothing else to rewrite
expect "$(K update --full | tail -1)" "4 checked, 0 updated, 0 failed" "update --full"
refuse 7 "not a published CVE, CVE-2024-10005" K update CVE-2024-10005

# ---- reject: files move, the reply is written, the reason kept ----
refuse 2 "needs a reason|--reason" K reject CVE-2024-10002
K reject CVE-2024-10002 --reason "duplicate of CVE-2024-10001" > "$T/rej"
J=$V/cve/rejected/2024
for ext in "" .sha1 .dyad .json .mbox .mbox.rejected; do [ -f "$J/CVE-2024-10002$ext" ] || fail "rejected $ext"; done
[ -z "$(ls "$P" | grep CVE-2024-10002 || true)" ] || fail "files left in published"
grep -q '^Subject: REJECTED: CVE-2024-10002: net: fix the buggy thing$' "$J/CVE-2024-10002.mbox.rejected" || fail "rejected subject"
grep -q '^In-Reply-To: ' "$J/CVE-2024-10002.mbox.rejected" || fail "In-Reply-To"
grep -q '^CVE-2024-10002 has now been rejected and is no longer a valid CVE.$' "$J/CVE-2024-10002.mbox.rejected" || fail "rejected body"
grep -q '^Rejected 2024-06-10: duplicate of CVE-2024-10001$' "$J/CVE-2024-10002" || fail "reason kept"
grep -q "^git send-email .*CVE-2024-10002.mbox.rejected$" "$T/rej" || fail "send-email hint"
expect "$(K search "$FIX_A")" "CVE-2024-10002 is assigned to git id $FIX_A (rejected)" "search rejected"
# a rejected fix still blocks the commit
refuse 14 "already has a CVE \(CVE-2024-10002, rejected\)" K create "$FIX_A"
refuse 8 "only published or reserved ids can be rejected" K reject CVE-2024-10002 --reason again
# In-Reply-To carries the announcement's Message-Id when it has one
sed -i '0,/^Subject:/s//Message-Id: <20240610-CVE-2024-10003-abcd@example.org>\nSubject:/' "$P/CVE-2024-10003.mbox"
K reject CVE-2024-10003 --reason "not a security issue" >/dev/null
grep -q '^In-Reply-To: <20240610-CVE-2024-10003-abcd@example.org>$' "$J/CVE-2024-10003.mbox.rejected" || fail "In-Reply-To value"

# ---- return: an unused reserved id ----
out=$(K return CVE-2024-10006)
grep -q "^CVE-2024-10006 returned$" <<< "$out" || fail "return"
[ -f "$V/cve/returned/2024/CVE-2024-10006" ] || fail "returned file"
refuse 8 "only an unused reserved id can be returned \(this one is published\)" K return CVE-2024-10001
refuse 7 "no such CVE" K return CVE-2024-19999

# ---- the final tree is consistent and counted right ----
K verify > "$T/v" || fail "verify: $(cat "$T/v")"
grep -Eq '^Total +1 +2 +2 +4 +1 +6$' <<< "$(K summary | tail -1)" || fail "summary: $(K summary)"
echo "lifecycle: OK"
