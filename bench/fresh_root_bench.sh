#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's two commands as a newcomer meets them (issue 25): a fresh
# clone of this tree's HEAD inside a clean Debian 12 root (debootstrap
# minbase from the apt mirror this machine uses, as tests/package/run.sh
# makes it), then `make demo` or `make test` there, timed with /usr/bin/time.
# Nothing is cached between runs: apt downloads every package (no ccache).
#
#   bench/fresh_root_bench.sh demo|test
#
# Prints the apt part (scripts/install-deps: packages, download size, time),
# the whole make's wall/user/sys time and peak memory, the load average
# before and after (the machine may be shared), and which services the
# installed packages would start at boot, if any. Root only (debootstrap,
# chroot, mount). Work in $PITH_BENCH_DIR (default /tmp/pith-fresh-root);
# the root is deleted at the end unless PITH_BENCH_KEEP=1.
set -euo pipefail
what=${1:?usage: bench/fresh_root_bench.sh demo|test}
set -- "$what"
src=$(cd "$(dirname "$0")/.." && pwd)
out=${PITH_BENCH_DIR:-/tmp/pith-fresh-root}
mkdir -p "$out"
root=$out/root-$what
tarball=$out/bookworm-minbase.tgz

mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  awk '/^(URIs:|deb) +https?:\/\/[^ ]+\/debian\/?( |$)/ { print $2; exit }' || true)
mirror=${PITH_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
security=${mirror%/debian*}/debian-security

# --one-file-system on every removal of the root: a /dev or /proc still bound
# inside it (a run killed before its trap) is never followed into the host's.
cleanup() {
  for m in "$root/proc" "$root/dev/pts" "$root/dev"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m"; done
  [[ ${PITH_BENCH_KEEP:-} == 1 ]] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
rm -rf --one-file-system "$root"
if [[ ! -s $tarball ]]; then
  debootstrap --variant=minbase --make-tarball="$tarball" bookworm "$out/tarball-work" "$mirror" >"$out/debootstrap.log" 2>&1
  rm -rf "$out/tarball-work"
fi
debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror" >"$out/debootstrap.log" 2>&1
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"  # terminals: pith_check_corpus runs pith-check under script(1)
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
  "$mirror" "$mirror" "$security" >"$root/etc/apt/sources.list"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# What a fresh machine has before the README's first command: git and make
# (not timed; minbase has neither; `time` for the measurement), and the clone.
in_root apt-get update -q >"$out/setup-$what.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends make git ca-certificates time \
  >>"$out/setup-$what.log" 2>&1
git clone -q --no-local "$src" "$root/root/pith"
echo "fresh_root_bench: make $what in a clean Debian 12 root, a clone of $(git -C "$src" rev-parse --short HEAD)"
echo "fresh_root_bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
before=$(in_root dpkg-query -W -f='${binary:Package}\n' | wc -l)
boot_units() { find "$root/etc/systemd/system" -path '*.wants/*' -printf '%P\n' 2>/dev/null | sort; }
boot_units >"$out/units-before-$what.txt"
# The apt part first (what `make $what` runs first), then the make itself,
# which finds everything installed: their sum is the README's one command.
timed() {  # timed LABEL COMMAND...: runs it in the clone, one summary line
  local label=$1
  shift
  in_root bash -c "cd /root/pith && /usr/bin/time -f 'fresh_root_bench: $label: %e s wall, %U s user, %S s sys, %M KB peak' $*" \
    >>"$out/make-$what.log" 2>&1
}
: >"$out/make-$what.log"
status=0
profile=$what
[[ $what == demo ]] || profile=test
timed "apt (scripts/install-deps $profile)" scripts/install-deps "$profile" || status=$?
((status == 0)) && { timed "make $what" make "$@" || status=$?; }
after=$(in_root dpkg-query -W -f='${binary:Package}\n' | wc -l)
echo "fresh_root_bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep '^fresh_root_bench:' "$out/make-$what.log" || true
echo "fresh_root_bench: packages installed: $((after - before)) (the root had $before)"
grep -E '^(Need to get|After this operation)' "$out/make-$what.log" | sed 's/^/fresh_root_bench: apt: /' || true
new_units=$(boot_units | comm -13 "$out/units-before-$what.txt" - | tr '\n' ' ')
echo "fresh_root_bench: units enabled at boot by what was installed: ${new_units:-none}"
[[ -e $root/etc/ssh/sshd_not_to_be_run ]] && echo "  (/etc/ssh/sshd_not_to_be_run: the system sshd never starts)"
[[ -e $root/usr/sbin/policy-rc.d ]] && echo "fresh_root_bench: a policy-rc.d was left behind"
((status == 0)) || tail -30 "$out/make-$what.log"
echo "fresh_root_bench: exit $status (log: $out/make-$what.log)"
exit $status
