#!/bin/bash
# Mitigations on a running system (issue 28 item 4): `kcve check --running --root IMG` reads the
# image's modprobe configuration.  The image holds blacklist and install rules; records name
# files of a synthetic kernel source whose modules are known exactly (--source):
#   0001 nf_tables (composite module, not loaded), install nf_tables /bin/false -> mitigated
#   0002 foo-bar (not loaded), "install foo-bar /bin/true" written with '-'      -> mitigated
#   0003 nft_ct (not loaded), blacklist only                                    -> affected,
#        "blacklisted", ranked below the other not-loaded ones
#   0004 nfnetlink (not loaded), no rule                                        -> affected
#   0005 net/core/failover.c built in, install failover /bin/false              -> affected
#   0006 virtio_net loaded, install virtio_net /bin/false                       -> affected
#   0007 net_failover: install runs modprobe --ignore-install (loads it)        -> affected
#   0008 nf_tables (blocked) + nfnetlink (free): one module can load            -> affected
#   0009 nft_inner.c, linked into nf_tables                                     -> mitigated
# 0004's nfnetlink has rules only where they must not count: in lib/nft.conf (hidden by
# etc/nft.conf, same name), in a file masked by a /dev/null link, behind a link leaving the image.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

. "$(dirname "${BASH_SOURCE[0]}")/running_fixture.sh"

"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --json > "$T/r.json" 2>"$T/err" \
	|| fail "check --running: $(cat "$T/err")"
grep -q "outside.conf is a symbolic link" "$T/err" || fail "link not reported: $(cat "$T/err")"
$PY - "$T/r.json" <<'PYEOF' || fail "mitigations"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = {x["id"][-4:]: x for x in r["cves"]}
out = {k: v["outcome"] for k, v in c.items()}
assert out == {"0001": "mitigated", "0002": "mitigated", "0003": "affected", "0004": "affected",
               "0005": "affected", "0006": "affected", "0007": "affected", "0008": "affected",
               "0009": "mitigated"}, out
m1 = c["0001"]["mitigation"]
assert m1["state"] == "blocked", m1
assert m1["evidence"] == "/etc/modprobe.d/hardening.conf:2: install nf_tables /bin/false", m1
assert "not affected: mitigated" in c["0001"]["reason"] and c["0001"]["stage"] == "modprobe"
assert c["0002"]["mitigation"]["evidence"] == "/etc/modprobe.d/hardening.conf:3: install foo_bar /bin/true"
m3 = c["0003"]["mitigation"]
assert m3 == {"state": "blacklisted", "evidence": "/etc/modprobe.d/hardening.conf:4: blacklist nft_ct"}, m3
for k in ("0004", "0005", "0006", "0007", "0008"):
    assert "mitigation" not in c[k], (k, c[k].get("mitigation"))
assert c["0006"]["module_loaded"] is True and c["0004"]["module_loaded"] is False
assert "module_loaded" not in c["0005"], c["0005"]         # built in: modules.builtin
# ranking: reachable now (built in, loaded) first, then not loaded, then blacklisted; the
# mitigated ones have no rank
ranked = [x["id"][-4:] for x in sorted((x for x in r["cves"] if "rank" in x), key=lambda x: x["rank"])]
assert ranked[:2] == ["0005", "0006"], ranked
assert ranked[2:5] == ["0004", "0007", "0008"] and ranked[5] == "0003", ranked
assert [x["id"][-4:] for x in r["cves"]][:6] == ranked      # the JSON lists them in that order
assert "rank" not in c["0001"]
assert [s["name"] for s in r["stages"]][-1] == "modprobe" and r["stages"][-1]["count"] == 6, r["stages"]
PYEOF

# OpenVEX: inline_mitigations_already_exist; the table shows the rule
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --openvex > "$T/v.json" 2>/dev/null \
	|| fail "openvex"
$PY - "$T/v.json" <<'PYEOF' || fail "openvex mitigated"
import json, sys
s = {x["vulnerability"]["name"][-4:]: x for x in json.load(open(sys.argv[1]))["statements"]}
assert s["0001"]["status"] == "not_affected", s["0001"]
assert s["0001"]["justification"] == "inline_mitigations_already_exist", s["0001"]
assert "impact_statement" not in s["0001"] and "hardening.conf:2" in s["0001"]["status_notes"]
assert s["0003"]["status"] == "affected"
PYEOF
# CSAF: known_not_affected with inline_mitigations_already_exist and a workaround naming the rule
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --csaf > "$T/c.json" 2>/dev/null \
	|| fail "csaf"
$PY - "$T/c.json" <<'PYEOF' || fail "csaf mitigated"
import json, sys
v = {x["cve"][-4:]: x for x in json.load(open(sys.argv[1]))["vulnerabilities"]}
m = v["0001"]
assert m["product_status"] == {"known_not_affected": ["linux-kernel-6.1.5"]}, m["product_status"]
assert m["flags"] == [{"label": "inline_mitigations_already_exist",
                       "product_ids": ["linux-kernel-6.1.5"]}], m["flags"]
assert [r["category"] for r in m["remediations"]] == ["workaround"], m["remediations"]
assert "hardening.conf:2" in m["remediations"][0]["details"], m["remediations"]
assert v["0003"]["product_status"] == {"known_affected": ["linux-kernel-6.1.5"]}
PYEOF
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" > "$T/t.txt" 2>/dev/null || fail table
grep -q "blacklisted, still loadable: /etc/modprobe.d/hardening.conf:4: blacklist nft_ct" "$T/t.txt" \
	|| fail "table without the blacklist rule: $(cat "$T/t.txt")"
grep -q "^mitigated: CVE-2099-0001 not affected: mitigated" "$T/t.txt" || fail "table without the mitigated line"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --ids 2>/dev/null > "$T/ids" || fail ids
grep -q "CVE-2099-0001\|CVE-2099-0002" "$T/ids" && fail "--ids lists a mitigated CVE: $(cat "$T/ids")"

# the kernel command line: module_blacklist= makes the kernel refuse nft_ct (0003 mitigated);
# then kernel.modules_disabled = 1: every CVE only in not-loaded modules is mitigated, built-in
# (0005) and loaded (0006) code is not
echo "BOOT_IMAGE=/vmlinuz ro module_blacklist=nft_ct modprobe.blacklist=nfnetlink" > "$R/proc/cmdline"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --json > "$T/c.json" 2>/dev/null || fail cmdline
mkdir -p "$R/proc/sys/kernel"; echo 1 > "$R/proc/sys/kernel/modules_disabled"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --json > "$T/d.json" 2>/dev/null || fail disabled
$PY - "$T/c.json" "$T/d.json" <<'PYEOF' || fail "cmdline / modules_disabled"
import json, sys
c = {x["id"][-4:]: x for x in json.load(open(sys.argv[1]))["results"][0]["cves"]}
assert c["0003"]["outcome"] == "mitigated", c["0003"]
assert c["0003"]["mitigation"]["evidence"] == "/proc/cmdline: module_blacklist=nft_ct"
assert c["0004"]["mitigation"] == {"state": "blacklisted", "evidence": "/proc/cmdline: modprobe.blacklist=nfnetlink"}
d = {x["id"][-4:]: x["outcome"] for x in json.load(open(sys.argv[2]))["results"][0]["cves"]}
assert d == {"0001": "mitigated", "0002": "mitigated", "0003": "mitigated", "0004": "mitigated",
             "0005": "affected", "0006": "affected", "0007": "mitigated", "0008": "mitigated",
             "0009": "mitigated"}, d
PYEOF
rm "${R:?}/proc/cmdline" "${R:?}/proc/sys/kernel/modules_disabled"

# without modules.builtin built-in code cannot be told from a module: no rule counts
mv "$R/usr/lib/modules" "$T/modules"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --ids > "$T/ids3" 2>"$T/err" || fail "no builtin"
[ "$(tr ' ' '\n' < "$T/ids3" | grep -c CVE-)" = 9 ] || fail "without modules.builtin all 9 apply: $(cat "$T/ids3")"
grep -q "modules.builtin is missing" "$T/err" || fail "no warning without modules.builtin: $(cat "$T/err")"
mv "$T/modules" "$R/usr/lib/modules"

# no modprobe.d at all: nothing mitigated
rm -rf "${R:?}/etc" "${R:?}/lib" "${R:?}/usr/lib/modprobe.d"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --ids > "$T/ids2" 2>/dev/null || fail "no rules"
[ "$(tr ' ' '\n' < "$T/ids2" | grep -c CVE-)" = 9 ] || fail "without rules all 9 apply: $(cat "$T/ids2")"
echo "modprobe: ok"
