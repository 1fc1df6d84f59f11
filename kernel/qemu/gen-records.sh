#!/usr/bin/env bash
# Record set for the QEMU boot test when the real record tree is absent, made by the CNA
# pipeline of kcve itself (as scripts/run's main job does): a small kernel-shaped git history
# whose commits touch real linux-source-6.1 paths, then `kcve index`, `kcve reserve add`,
# `kcve create --batch` on a fresh vulns-compatible tree, and `kcve verify`.
# (tools/gen-history writes synthetic paths that no kernel Makefile reaches; the boot test
# needs fixes in the files of the modules it loads, so it writes its own short history.)
#
# History: mainline v6.0 -> v6.1 -> v6.2 -> v6.3; linux-6.1.y with v6.1.150 and v6.1.193.
#   for each module file of modules.list: a bug introduced before v6.1, fixed in v6.2, no
#     6.1 backport (applies to 6.1.192; the compiled/loaded state decides the rest);
#   kernel/fork.c: fixed in v6.2 and backported in v6.1.193 (applies, built in);
#   mm/memory.c: fixed in v6.2 and backported in v6.1.150 (fixed in 6.1.192);
#   fs/ext4/inode.c: introduced in v6.2, fixed in v6.3 (never in 6.1);
#   drivers/gpu/drm/drm_gem.c: fixed in v6.2, no backport (applies by version, not compiled).
# Usage: kernel/qemu/gen-records.sh OUTDIR   (env: KCVE = kcve binary). Prints OUTDIR/vulns.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: gen-records.sh OUTDIR}
kcve=${KCVE:?KCVE (kcve binary) not set}
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$out/linux
tree=$out/vulns
export HOME=$out GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
n=0
commit() { # MESSAGE FILE -> sha; one hour apart from 2024-03-09 on, so every id year is 2024
	n=$((n + 1))
	mkdir -p "$(dirname "$2")"
	echo "change $n" >> "$2"
	git add "$2"
	GIT_AUTHOR_DATE="@$((1710000000 + n * 3600)) +0000" GIT_COMMITTER_DATE="@$((1710000000 + n * 3600)) +0000" \
		git commit -q -m "$1"
	git rev-parse HEAD
}
fixes() { echo "Fixes: ${1:0:12} (\"$2\")"; }
tag() { GIT_COMMITTER_DATE="@$((1710000000 + n * 3600 + 60)) +0000" git tag -a "$1" -m "Linux ${1#v}"; }

git init -q -b master "$repo"
cd "$repo"
commit "Linux 6.0" Makefile >/dev/null
tag v6.0
mapfile -t modfiles < <(awk '!/^#/ && NF >= 2 { print $2 }' "$here/modules.list")
declare -A intro
for f in "${modfiles[@]}" kernel/fork.c mm/memory.c drivers/gpu/drm/drm_gem.c; do
	intro[$f]=$(commit "$(basename "${f%.c}"): add a buggy path" "$f")
done
commit "Linux 6.1" Makefile >/dev/null
tag v6.1
declare -A fix
for f in "${modfiles[@]}" kernel/fork.c mm/memory.c drivers/gpu/drm/drm_gem.c; do
	fix[$f]=$(commit "$(basename "${f%.c}"): fix the buggy path

$(fixes "${intro[$f]}" "$(basename "${f%.c}"): add a buggy path")" "$f")
done
intro_late=$(commit "ext4: add a buggy path" fs/ext4/inode.c)
commit "Linux 6.2" Makefile >/dev/null
tag v6.2
fix_late=$(commit "ext4: fix the buggy path

$(fixes "$intro_late" "ext4: add a buggy path")" fs/ext4/inode.c)
commit "Linux 6.3" Makefile >/dev/null
tag v6.3
git checkout -q -b linux-6.1.y v6.1
commit "mm: fix the buggy path

commit ${fix[mm/memory.c]} upstream." mm/memory.c >/dev/null
commit "Linux 6.1.150" Makefile >/dev/null
tag v6.1.150
commit "fork: fix the buggy path

[ Upstream commit ${fix[kernel/fork.c]} ]" kernel/fork.c >/dev/null
commit "Linux 6.1.193" Makefile >/dev/null
tag v6.1.193
git checkout -q master

K() { "$kcve" --repo "$repo" --index "$out/index.sqlite" --tree "$tree" "$@"; }
K index >/dev/null
mkdir -p "$tree"/cve/{reserved,published,rejected,returned}/2024 "$tree/scripts"
echo f4215fc3-5b6b-47ff-a258-f7189bd81038 > "$tree/scripts/linux.uuid"
K reserve add $(seq -f "CVE-2024-9%04.0f" 1 20) >/dev/null
printf '%s\n' "${fix[@]}" "$fix_late" > "$out/fixes.batch"
KCVE_FROM='kcve boot test <boot-test@example.org>' K create --batch "$out/fixes.batch" > "$out/create.out"
want=$(wc -l < "$out/fixes.batch")
got=$(find "$tree/cve/published" -name '*.sha1' | wc -l)
[ "$got" = "$want" ] || { echo "gen-records: $got of $want fixes received a CVE" >&2; cat "$out/create.out" >&2; exit 1; }
K verify >/dev/null || { echo "gen-records: kcve verify reports problems" >&2; K verify >&2; exit 1; }
echo "$tree"
