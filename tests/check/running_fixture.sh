# Sourced by modprobe.sh and cross_path.sh (after check-env.sh): a synthetic kernel source $K
# whose modules are known exactly, nine records naming its files ($T/tree, each affecting
# 6.1.5; the cases are listed in modprobe.sh), and a system image $R of that kernel (6.1.5):
# proc/ (osrelease, version, config.gz, modules), modules.builtin and modprobe.d rules
# (blacklist and install rules, a file hidden by another of the same name, one masked by a
# /dev/null link, a link leaving the image).
K="$T/ksrc"
mk() { mkdir -p "$(dirname "$K/$1")"; printf '%b' "$2" > "$K/$1"; }
mk Makefile '# top\n'
mk Kbuild 'obj-y += net/\nobj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n'
mk arch/x86/Makefile ''
mk arch/x86/Kbuild ''
mk net/Makefile 'obj-$(CONFIG_NETFILTER) += netfilter/\nobj-$(CONFIG_NET) += core/\n'
mk net/core/Makefile 'obj-y += dev.o\nobj-$(CONFIG_FAILOVER) += failover.o\n'
for f in dev failover; do mk "net/core/$f.c" ''; done
mk net/netfilter/Makefile 'nf_tables-objs := nf_tables_core.o nf_tables_api.o\nnf_tables-$(CONFIG_NFT_INNER) += nft_inner.o\nobj-$(CONFIG_NF_TABLES) += nf_tables.o\nobj-$(CONFIG_NFT_CT) += nft_ct.o\nobj-$(CONFIG_NETFILTER_NETLINK) += nfnetlink.o\n'
for f in nf_tables_core nf_tables_api nft_inner nft_ct nfnetlink; do mk "net/netfilter/$f.c" ''; done
mk drivers/Makefile 'obj-$(CONFIG_NET_CORE) += net/\nobj-$(CONFIG_FOO) += foo-bar.o\nfoo-bar-y := foo_main.o foo_hw.o\n'
for f in foo_main foo_hw; do mk "drivers/$f.c" ''; done
mk drivers/net/Makefile 'obj-$(CONFIG_VIRTIO_NET) += virtio_net.o\nobj-$(CONFIG_NET_FAILOVER) += net_failover.o\n'
for f in virtio_net net_failover; do mk "drivers/net/$f.c" ''; done

A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
$PY - "$T/spec.json" "$A" "$B" <<'EOF'
import json, sys
out, a, b = sys.argv[1:4]
files = [["net/netfilter/nf_tables_api.c"], ["drivers/foo_hw.c"], ["net/netfilter/nft_ct.c"],
         ["net/netfilter/nfnetlink.c"], ["net/core/failover.c"], ["drivers/net/virtio_net.c"],
         ["drivers/net/net_failover.c"],
         ["net/netfilter/nf_tables_core.c", "net/netfilter/nfnetlink.c"],
         ["net/netfilter/nft_inner.c"]]
# the same CVSS score everywhere, so that exposure alone orders them
spec = [{"id": "CVE-2099-%04d" % (i + 1), "title": "t%d" % i, "files": f, "severity": "HIGH",
         "score": 7.8, "pairs": ["6.0:%s:6.1.90:%s" % (a, b)]} for i, f in enumerate(files)]
json.dump(spec, open(out, "w"))
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

R="$T/root"
mkdir -p "$R/proc/sys/kernel" "$R/boot" "$R/etc/modprobe.d" "$R/lib/modprobe.d" "$R/usr/lib/modprobe.d"
echo "6.1.5" > "$R/proc/sys/kernel/osrelease"
echo "Linux version 6.1.5 (gcc) #1 SMP" > "$R/proc/version"
printf '%s\n' CONFIG_X86=y CONFIG_64BIT=y CONFIG_MODULES=y CONFIG_NETFILTER=y CONFIG_NET=y \
	CONFIG_NF_TABLES=m CONFIG_NFT_INNER=y CONFIG_NFT_CT=m CONFIG_NETFILTER_NETLINK=m \
	CONFIG_NET_CORE=y CONFIG_VIRTIO_NET=m CONFIG_NET_FAILOVER=m CONFIG_FAILOVER=y CONFIG_FOO=m \
	| gzip -c > "$R/proc/config.gz"
printf 'virtio_net 16384 0 - Live 0x0\next4 1024000 2 - Live 0x0\n' > "$R/proc/modules"
# what the kernel has built in (the Kbuild mapping alone names obj-y objects like modules)
mkdir -p "$R/usr/lib/modules/6.1.5"
printf 'kernel/net/core/failover.ko\nkernel/net/core/dev.ko\n' > "$R/usr/lib/modules/6.1.5/modules.builtin"
printf '%s\n' '# CIS-style rules' 'install nf_tables /bin/false' 'install foo-bar /bin/true' \
	'blacklist nft_ct' 'install failover /bin/false' 'install virtio_net /bin/false' \
	'install net_failover /sbin/modprobe --ignore-install net_failover' \
	> "$R/etc/modprobe.d/hardening.conf"
# etc/nft.conf hides lib/nft.conf (same name): nft_inner's nf_tables... is blocked by
# hardening.conf anyway, but nfnetlink's lib/ rule must not count
printf 'blacklist nf_tables\n' > "$R/etc/modprobe.d/nft.conf"
printf 'install nfnetlink /bin/true\n' > "$R/lib/modprobe.d/nft.conf"
printf 'install nfnetlink /bin/false\n' > "$R/usr/lib/modprobe.d/masked.conf"
ln -s /dev/null "$R/etc/modprobe.d/masked.conf"                  # masks it
printf 'install nfnetlink /bin/false\n' > "$T/outside.conf"
ln -s "$T/outside.conf" "$R/etc/modprobe.d/outside.conf"           # leaves the image
