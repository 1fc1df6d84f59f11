#!/bin/bash
# A database built with `kcve db build --source KSRC` must decide every programFile of every
# record exactly as the Kbuild evaluation of KSRC does (`kcve db files --db` vs `--source`,
# under several .configs): files outside the build (tools/), files deleted from the tree,
# directories no makefile reaches, .S files, headers, `#include "x.c"` under preprocessor
# conditions.  It must also know which module each file links into (composite modules such as
# nf_tables = nf_tables_api.o + nf_tables_core.o), so that `kcve check --running` marks
# "[module loaded]" from /proc/modules exactly, with --db and with --source.
# Then, when /usr/src/linux-source-6.1.tar.xz and the shared record tree exist, the same
# per-file equality on the real kernel source and the real records.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

# ---- synthetic kernel source
K="$T/ksrc"
mk() { mkdir -p "$(dirname "$K/$1")"; printf '%b' "$2" > "$K/$1"; }
mk Makefile '# top\n'
mk Kbuild 'obj-y += kernel/\nobj-y += fs/\nobj-y += net/\nobj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n'
mk arch/x86/Makefile ''
mk arch/x86/Kbuild 'obj-y += kernel/\n'
mk arch/x86/kernel/Makefile 'obj-y += entry_64.o\nobj-$(CONFIG_IA32_EMULATION) += entry_64_compat.o\n'
mk arch/x86/kernel/entry_64.S ''
mk arch/x86/kernel/entry_64_compat.S ''
mk arch/arm64/kernel/Makefile 'obj-y += setup.o\n'
mk arch/arm64/kernel/setup.c ''
mk kernel/Makefile 'obj-y += sched/\nobj-$(CONFIG_BPF_SYSCALL) += bpf/\n'
mk kernel/bpf/Makefile 'obj-y += verifier.o\n'
mk kernel/bpf/verifier.c ''
mk kernel/sched/Makefile 'obj-y += build_policy.o\n'
mk kernel/sched/build_policy.c '#include "rt.c"\n#ifdef CONFIG_SCHED_DEBUG\n# include "debug.c"\n#endif\n#if IS_ENABLED(CONFIG_CPU_FREQ)\n#include "cpufreq.c"\n#else\n#include "nofreq.c"\n#endif\n#if IS_MODULE(CONFIG_SCHED_MOD)\n#include "modonly.c"\n#endif\n#if FOO > 2\n#include "weird.c"\n#endif\n'
for f in rt debug cpufreq nofreq modonly weird; do mk "kernel/sched/$f.c" ''; done
mk fs/Makefile 'obj-$(CONFIG_EXT4_FS) += ext4/\nobj-$(CONFIG_NFS_FS) += nfs/\n'
mk fs/ext4/Makefile 'obj-$(CONFIG_EXT4_FS) += ext4.o\next4-y := inode.o super.o\next4-$(CONFIG_EXT4_FS_POSIX_ACL) += acl.o\n'
for f in inode super acl; do mk "fs/ext4/$f.c" ''; done
mk fs/nfs/Makefile 'obj-$(CONFIG_NFS_FS) += nfs.o\nnfs-y := client.o\nifdef CONFIG_NFS_V4\nnfs-y += nfs4proc.o\nelse\nnfs-y += nonfs4.o\nendif\n'
for f in client nfs4proc nonfs4; do mk "fs/nfs/$f.c" ''; done
mk net/Makefile 'obj-$(CONFIG_NETFILTER) += netfilter/\nobj-$(CONFIG_NET) += core/\n'
mk net/core/Makefile 'obj-y += dev.o\nobj-$(CONFIG_FAILOVER) += failover.o\n'
for f in dev failover; do mk "net/core/$f.c" ''; done
mk net/netfilter/Makefile 'nf_tables-objs := nf_tables_core.o nf_tables_api.o\nnf_tables-$(CONFIG_NFT_INNER) += nft_inner.o\nobj-$(CONFIG_NF_TABLES) += nf_tables.o\nobj-$(CONFIG_NFT_CT) += nft_ct.o\nobj-$(CONFIG_NETFILTER_NETLINK) += nfnetlink.o\n'
for f in nf_tables_core nf_tables_api nft_inner nft_ct nfnetlink; do mk "net/netfilter/$f.c" ''; done
mk drivers/Makefile 'obj-$(CONFIG_NET_CORE) += net/\nobj-$(CONFIG_FOO) += foo-bar.o\nfoo-bar-y := foo_main.o foo_hw.o\n'
mk drivers/foo_main.c ''
mk drivers/foo_hw.c ''
mk drivers/net/Makefile 'obj-$(CONFIG_VIRTIO_NET) += virtio_net.o\nobj-$(CONFIG_NET_FAILOVER) += net_failover.o\n'
for f in virtio_net net_failover; do mk "drivers/net/$f.c" ''; done
mk drivers/staging/gone/Makefile 'obj-y += gone.o\n'
mk drivers/staging/gone/gone.c ''
mk include/linux/x.h ''
mk tools/testing/selftests/bpf/progs/present.c ''
mk scripts/mod/modpost.c ''

# ---- records naming those files, and some that are not in the tree
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
$PY - "$T/spec.json" "$A" "$B" <<'EOF'
import json, sys
out, a, b = sys.argv[1:4]
files = [
    ["kernel/bpf/verifier.c", "tools/testing/selftests/bpf/progs/iters.c",
     "tools/testing/selftests/bpf/progs/present.c"],
    ["tools/testing/selftests/net/only.c"], ["scripts/mod/modpost.c"],
    ["fs/ext4/inode.c"], ["fs/ext4/acl.c"], ["fs/ext4/deleted.c"], ["fs/ext4/ext4.h"],
    ["fs/nfs/nfs4proc.c"], ["fs/nfs/nonfs4.c"], ["fs/nfs/renamed.c"],
    ["net/netfilter/nf_tables_api.c"], ["net/netfilter/nft_inner.c"], ["net/netfilter/nft_ct.c"],
    ["net/netfilter/nfnetlink.c"], ["net/core/failover.c", "net/core/dev.c"],
    ["drivers/net/virtio_net.c"], ["drivers/net/net_failover.c"], ["drivers/foo_hw.c"],
    ["drivers/staging/gone/gone.c"], ["drivers/nowhere/x.c"], ["include/linux/x.h"],
    ["arch/x86/kernel/entry_64.S"], ["arch/x86/kernel/entry_64_compat.S"],
    ["arch/x86/kernel/removed.S"], ["arch/arm64/kernel/setup.c"],
    ["kernel/sched/rt.c"], ["kernel/sched/debug.c"], ["kernel/sched/cpufreq.c"],
    ["kernel/sched/nofreq.c"], ["kernel/sched/modonly.c"], ["kernel/sched/weird.c"],
    ["Documentation/x.rst"], ["./fs/ext4/super.c"],
]
spec = [{"id": "CVE-2099-%04d" % (i + 1), "title": "t%d" % i, "files": f,
         "pairs": ["6.0:%s:6.1.90:%s" % (a, b)]} for i, f in enumerate(files)]
json.dump(spec, open(out, "w"))
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
"$KCVE" db build --tree "$T/tree" --source "$K" -o "$T/k.db" 2>"$T/err" || fail "db build: $(cat "$T/err")"

# three configurations: most things built in, modules and other switches, almost nothing
printf '%s\n' CONFIG_X86=y CONFIG_64BIT=y CONFIG_MODULES=y CONFIG_BPF_SYSCALL=y CONFIG_EXT4_FS=y \
	CONFIG_EXT4_FS_POSIX_ACL=y CONFIG_NFS_FS=y CONFIG_NFS_V4=y CONFIG_NETFILTER=y CONFIG_NET=y \
	CONFIG_NF_TABLES=y CONFIG_NFT_CT=y CONFIG_NET_CORE=y CONFIG_VIRTIO_NET=y CONFIG_FOO=y \
	CONFIG_SCHED_DEBUG=y CONFIG_CPU_FREQ=y CONFIG_IA32_EMULATION=y CONFIG_FAILOVER=y > "$T/c1"
printf '%s\n' CONFIG_X86=y CONFIG_64BIT=y CONFIG_MODULES=y CONFIG_EXT4_FS=m CONFIG_NFS_FS=m \
	CONFIG_NETFILTER=y CONFIG_NET=y CONFIG_NF_TABLES=m CONFIG_NFT_INNER=y CONFIG_NFT_CT=m \
	CONFIG_NETFILTER_NETLINK=m CONFIG_NET_CORE=y CONFIG_VIRTIO_NET=m CONFIG_NET_FAILOVER=m \
	CONFIG_FAILOVER=m CONFIG_FOO=m CONFIG_CPU_FREQ=m CONFIG_SCHED_MOD=m CONFIG_SCHED_DEBUG=m > "$T/c2"
printf '%s\n' CONFIG_X86=y CONFIG_64BIT=y '# CONFIG_NET is not set' > "$T/c3"
for c in c1 c2 c3; do
	"$KCVE" db files --db "$T/k.db" --config "$T/$c" > "$T/$c.db" 2>"$T/err" || fail "db files --db: $(cat "$T/err")"
	"$KCVE" db files --tree "$T/tree" --source "$K" --config "$T/$c" > "$T/$c.src" 2>"$T/err" \
		|| fail "db files --source: $(cat "$T/err")"
	[ "$(wc -l < "$T/$c.src")" -ge 30 ] || fail "$c: too few files listed: $(cat "$T/$c.src")"
	$PY - "$T/$c.db" "$T/$c.src" "$c" <<'EOF' || fail "$c: db and source verdicts differ"
import sys
def load(p):
    return {l.split("\t")[0]: l.rstrip("\n").split("\t")[1:] for l in open(p)}
db, src, name = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
assert db.keys() == src.keys(), (db.keys() ^ src.keys())
bad = [(p, db[p][0], src[p][0]) for p in sorted(db) if db[p][0] != src[p][0]]
assert not bad, "\n".join("%s: db %s, source %s" % b for b in bad)
# where the source evaluation names a module, the database names the same one
badm = [(p, db[p][1], src[p][1]) for p in sorted(db) if src[p][1] and db[p][1] != src[p][1]]
assert not badm, badm
# spot checks: the rules themselves, not only their agreement
v = {p: src[p][0] for p in src}
assert v["tools/testing/selftests/bpf/progs/iters.c"] == "not-compiled"
assert v["fs/ext4/ext4.h"] == "unknown" and v["include/linux/x.h"] == "unknown"
assert v["drivers/nowhere/x.c"] == "not-compiled" and v["fs/ext4/deleted.c"] == "not-compiled"
assert v["arch/arm64/kernel/setup.c"] == "not-compiled"
assert v["kernel/sched/weird.c"] == "unknown"
if name == "c1":
    assert v["kernel/sched/debug.c"] == "compiled" and v["kernel/sched/nofreq.c"] == "not-compiled"
    assert v["arch/x86/kernel/entry_64_compat.S"] == "compiled"
if name == "c2":
    assert v["kernel/sched/debug.c"] == "not-compiled"      # =m: CONFIG_SCHED_DEBUG_MODULE
    assert v["kernel/sched/cpufreq.c"] == "compiled" and v["kernel/sched/modonly.c"] == "compiled"
    assert v["fs/nfs/nonfs4.c"] == "compiled" and v["fs/nfs/nfs4proc.c"] == "not-compiled"
    m = {p: src[p][1] for p in src}
    assert m["net/netfilter/nf_tables_api.c"] == "nf_tables" and m["net/netfilter/nft_inner.c"] == "nf_tables"
    assert m["drivers/foo_hw.c"] == "foo_bar" and m["net/netfilter/nft_ct.c"] == "nft_ct"
    assert db["fs/ext4/inode.c"][1] == "ext4"
EOF
	"$KCVE" check --db "$T/k.db" --version 6.1.5 --config "$T/$c" --ids > "$T/$c.ids1" || fail "$c: check --db"
	"$KCVE" check --tree "$T/tree" --source "$K" --version 6.1.5 --config "$T/$c" --ids > "$T/$c.ids2" \
		|| fail "$c: check --source"
	cmp -s "$T/$c.ids1" "$T/$c.ids2" || fail "$c: check --db and --source list different CVEs: $(diff "$T/$c.ids1" "$T/$c.ids2")"
done

# ---- module marking from /proc/modules, with the db and with the source tree
R="$T/root"
mkdir -p "$R/proc/sys/kernel" "$R/boot"
echo "6.1.5" > "$R/proc/sys/kernel/osrelease"
echo "Linux version 6.1.5 (gcc) #1 SMP" > "$R/proc/version"
gzip -c "$T/c2" > "$R/proc/config.gz"
printf 'nf_tables 245760 0 - Live 0x0\nfoo_bar 16384 0 - Live 0x0\nnet_failover 16384 0 - Live 0x0\n' > "$R/proc/modules"
"$KCVE" check --db "$T/k.db" --running --root "$R" --json > "$T/m1.json" 2>"$T/err" || fail "running --db: $(cat "$T/err")"
"$KCVE" check --tree "$T/tree" --source "$K" --running --root "$R" --json > "$T/m2.json" 2>"$T/err" \
	|| fail "running --source: $(cat "$T/err")"
for m in m1 m2; do
	$PY - "$T/$m.json" <<'EOF' || fail "$m: module marking"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
marked = sorted(x["id"] for x in r["cves"] if x.get("module_loaded"))
ids = {tuple(x["files"]): x["id"] for x in r["cves"]}
want = sorted([ids[("net/netfilter/nf_tables_api.c",)], ids[("net/netfilter/nft_inner.c",)],
               ids[("drivers/foo_hw.c",)], ids[("drivers/net/net_failover.c",)]])
# nft_ct (module not loaded), nfnetlink, virtio_net, failover (not loaded) stay unmarked
assert marked == want, (marked, want)
# ... and those built as modules that are not loaded say so ("module_loaded": false)
unloaded = sorted(x["id"] for x in r["cves"] if x.get("module_loaded") is False)
assert ids[("net/netfilter/nft_ct.c",)] in unloaded, unloaded
EOF
done
"$KCVE" check --db "$T/k.db" --running --root "$R" > "$T/m.txt" 2>/dev/null || fail "running table"
grep -q '\[module loaded\]' "$T/m.txt" || fail "table without [module loaded]: $(cat "$T/m.txt")"
grep -q '\[module not loaded\]' "$T/m.txt" || fail "table without [module not loaded]: $(cat "$T/m.txt")"

# ---- the real kernel source and the real records (optional)
[ -n "${KCVE_BUILD:-}" ] || { echo "synthetic part passed; real part skipped: KCVE_BUILD unset (run it from meson test)"; exit 77; }
set +e
ksrc=$("$KCVE_SRC/tests/lib/linux-source.sh"); rc1=$?
vt=$("$KCVE_SRC/tests/lib/real-tree.sh"); rc2=$?
set -e
if [ $rc1 -eq 77 ] || [ $rc2 -eq 77 ]; then
	echo "synthetic part passed; real part skipped (no linux-source-6.1 package or no shared record tree)"
	exit 77
fi
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || fail "unpacking the real kernel source or record tree"
[ -d "$vt/cve/published" ] || fail "no record tree in $vt"
"$KCVE" db build --tree "$vt" --source "$ksrc" -o "$T/real.db" 2>"$T/err" || fail "real db build: $(cat "$T/err")"
cp "$KCVE_SRC/tests/kbuild/data/small.config" "$T/r1"
# a second configuration: every third enabled symbol switched off
awk '/=y$|=m$/ { if (++n % 3 == 0) { sub(/=.*/, ""); print "# " $0 " is not set"; next } } { print }' "$T/r1" > "$T/r2"
for c in r1 r2; do
	"$KCVE" db files --db "$T/real.db" --config "$T/$c" | cut -f1,2 > "$T/$c.db" || fail "real db files"
	"$KCVE" db files --tree "$vt" --source "$ksrc" --config "$T/$c" | cut -f1,2 > "$T/$c.src" || fail "real source files"
	[ "$(wc -l < "$T/$c.src")" -ge 1000 ] || fail "$c: too few real files"
	diff "$T/$c.db" "$T/$c.src" > "$T/$c.diff" || fail "$c: real db and source verdicts differ: $(head -20 "$T/$c.diff")"
	"$KCVE" check --db "$T/real.db" --version 6.1.100 --config "$T/$c" --ids > "$T/$c.i1" || fail "real check --db"
	"$KCVE" check --tree "$vt" --source "$ksrc" --version 6.1.100 --config "$T/$c" --ids > "$T/$c.i2" || fail "real check --source"
	cmp -s "$T/$c.i1" "$T/$c.i2" || fail "$c: real --db and --source --ids differ"
done
# Debian's real amd64 and arm64 configurations (../shared/fixtures/kbuild-debian-6.1, issue 34):
# every CVE of the 2024 tree gets the same verdict from --db as from --source, for an early
# 6.1 release where most of them apply (so that the file stage decides them).
fx=${KCVE_SHARED:-/nonexistent}/fixtures/kbuild-debian-6.1
if [ -f "$fx/amd64/config.xz" ] && [ -f "$fx/arm64/config.xz" ]; then
	for flavour in amd64 arm64; do
		xz -dc "$fx/$flavour/config.xz" > "$T/$flavour.config"
		"$KCVE" check --db "$T/real.db" --version 6.1.1 --all --config "$T/$flavour.config" --json \
			> "$T/$flavour.db.json" 2>/dev/null || fail "$flavour: check --db"
		"$KCVE" check --tree "$vt" --source "$ksrc" --version 6.1.1 --all --config "$T/$flavour.config" \
			--json > "$T/$flavour.src.json" 2>/dev/null || fail "$flavour: check --source"
		$PY - "$T/$flavour.db.json" "$T/$flavour.src.json" "$flavour" <<'PYEOF' || fail "$flavour: --db and --source verdicts differ"
import json, sys
db, src = ({c["id"]: c for c in json.load(open(p))["results"][0]["cves"]} for p in sys.argv[1:3])
assert len(src) > 7000 and db.keys() == src.keys(), (len(src), db.keys() ^ src.keys())
bad = [i for i in sorted(src) if db[i]["outcome"] != src[i]["outcome"]]
for i in bad[:20]:
    print("%s %s: db %s (%s), source %s (%s)" % (sys.argv[3], i, db[i]["outcome"], db[i]["reason"],
                                                 src[i]["outcome"], src[i]["reason"]))
assert not bad, "%d CVEs differ" % len(bad)
print("%s: %d CVEs, the same verdict from --db and --source" % (sys.argv[3], len(src)))
PYEOF
	done
else
	echo "(the kbuild-debian-6.1 fixture is absent: its two real configurations not checked)"
fi
echo "synthetic and real parts passed"
