#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make package-test: builds the Debian packages from this tree
# (dpkg-buildpackage -b), runs lintian on them, installs them with apt into a
# clean Debian 12 (debootstrap minbase, from the apt mirror this machine
# uses) and there runs what a user would: pith-check --version, a LaTeX build
# of the sample with the installed pith.sty and latexmkrc, pith-check
# --offline on the stamped PDF and on a tar of it, kpsewhich, man, bash completion, and the
# consumer CMake project (tests/consumer) against libpith-dev.
# Needs root (debootstrap, chroot, mount). Work and caches in $PITH_PACKAGE_DIR
# (default build/package): the debootstrap tarball and apt's downloads are
# kept there, so a rerun fetches nothing.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${PITH_PACKAGE_DIR:-$src/build/package}
cache=$out/cache
mkdir -p "$out" "$cache/archives/partial"
out=$(cd "$out" && pwd)
started=$SECONDS
say() { printf '== %s (%ds)\n' "$*" $((SECONDS - started)); }

# The mirror and suite of this machine's apt sources (deb822 or one-line).
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  awk '/^(URIs:|deb) +https?:\/\/[^ ]+\/debian\/?( |$)/ { print $2; exit }' || true)
mirror=${PITH_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
security=${mirror%/debian*}/debian-security

# 1. Build the packages from a copy of the tree (tracked and new files, not
#    build output), so the worktree stays clean.
#    PITH_PACKAGE_REUSE=1 installs the .debs of the previous run instead.
if [[ ${PITH_PACKAGE_REUSE:-} == 1 && -n $(ls "$out"/pith_*.deb 2>/dev/null) ]]; then
  say "reusing the packages built before (PITH_PACKAGE_REUSE=1)"
else
  say "building the packages"
  rm -rf "$out/src" && mkdir -p "$out/src"
  (cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - --no-recursion) | tar xf - -C "$out/src"
  rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
  # No -dbgsym package: compressing its debug info takes minutes and nothing here uses it.
  (cd "$out/src" && CMAKE_CXX_COMPILER_LAUNCHER=$(command -v ccache || true) \
    DEB_BUILD_OPTIONS="parallel=${PITH_PACKAGE_JOBS:-1} noautodbgsym" dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1) ||
    { tail -40 "$out/build.log"; echo "package-test: dpkg-buildpackage failed (log: $out/build.log)"; exit 1; }
fi
say "lintian"
lintian --info "$out"/pith_*.changes >"$out/lintian.txt" 2>&1 || true
cat "$out/lintian.txt"
for deb in "$out"/*.deb; do
  printf '%s: %s bytes, installed %s KiB\n' "$(basename "$deb")" "$(stat -c %s "$deb")" "$(dpkg-deb -f "$deb" Installed-Size)"
done | tee "$out/sizes.txt"

# 2. A clean Debian 12 root.
root=$out/root
# --one-file-system on every removal of the root: a /dev or /proc still bound
# inside it (a run killed before its trap) is never followed into the host's.
cleanup() {
  for m in "$root/var/cache/apt/archives" "$root/proc" "$root/dev/pts" "$root/dev"; do
    mountpoint -q "$m" 2>/dev/null && umount -l "$m"
  done
  return 0
}
trap cleanup EXIT
cleanup
rm -rf --one-file-system "$root"
tarball=$cache/bookworm-minbase.tgz
if [[ ! -s $tarball ]]; then
  say "debootstrap tarball (once)"
  debootstrap --variant=minbase --make-tarball="$tarball" bookworm "$out/tarball-work" "$mirror" >"$out/debootstrap.log" 2>&1
  rm -rf "$out/tarball-work"
fi
say "debootstrap bookworm minbase"
debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror" >"$out/debootstrap.log" 2>&1 ||
  { tail -20 "$out/debootstrap.log"; exit 1; }
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
echo 'APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90keep"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# 3. The packages, installed by apt with their dependencies, and what the
#    checks below use (man, a LaTeX build, a C++ compiler for the consumer).
say "apt-get install the packages"
mkdir -p "$root/tmp/debs" && cp "$out"/pith_*.deb "$out"/pith-latex_*.deb "$out"/libpith-dev_*.deb "$root/tmp/debs/"
debs=()
for deb in "$root"/tmp/debs/*.deb; do debs+=("/tmp/debs/$(basename "$deb")"); done  # paths inside the root
in_root apt-get update -q >"$out/apt.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  "${debs[@]}" man-db lmodern latexmk cmake g++ make >>"$out/apt.log" 2>&1 || { tail -30 "$out/apt.log"; exit 1; }

# 4. As a user would.
say "checks in the Debian 12 root"
failures=0
check() {  # check DESCRIPTION COMMAND...: runs COMMAND in the root, as a login shell script
  local what=$1
  shift
  if in_root bash -c "$*" >"$out/last.log" 2>&1; then
    echo "ok   $what"
  else
    echo "FAIL $what"; sed 's/^/     /' "$out/last.log"; failures=$((failures + 1))
  fi
}
mkdir -p "$root/tmp/t"
cp -r "$src/samples/paper.tex" "$src/samples/latexmkrc" "$src/samples/registry" "$src/tests/consumer" "$root/tmp/t/"
check "pith-check --version names the tool and the libraries" \
  'pith-check --version | tee /dev/stderr | grep -q "^pith-check [0-9]" && pith-stamp --version | grep -q "^libraries: PoDoFo"'
check "kpsewhich finds the installed pith.sty" 'test "$(kpsewhich pith.sty)" = /usr/share/texmf/tex/latex/pith/pith.sty'
check "latexmk with the installed latexmkrc builds and stamps the sample" \
  'cd /tmp/t && latexmk -interaction=nonstopmode -quiet paper.tex'
check "pith-check --offline verifies the stamped sample" \
  'cd /tmp/t && pith-check --offline paper.pdf | tee /dev/stderr | grep -q "verified pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"'
# libarchive is loaded with dlopen (lib/pith/base/archive_library.hpp): only
# the package's Depends brings libarchive13; exit 0 is every member verified.
check "pith-check --offline --tar verifies the sample in a tar (libarchive13 installed with the package)" \
  'cd /tmp/t && tar -cf paper.tar paper.pdf && pith-check --offline --tar paper.tar'
check "man -w finds pith-check(1), pith-stamp(1), pith-corpus-merge(1), pith(7)" 'man -w pith-check && man -w pith-stamp && man -w pith-corpus-merge && man -w 7 pith'
check "man renders pith-check(1) with EXIT STATUS" 'man -P cat pith-check 2>/dev/null | grep -q "EXIT STATUS"'
check "bash completes pith-check --of to --offline" \
  'source /usr/share/bash-completion/completions/pith-check && complete -p pith-check &&
   COMP_WORDS=(pith-check --of) COMP_CWORD=1 && _pith_check && test "${COMPREPLY[*]}" = --offline'
check "zsh completion is installed" 'test -s /usr/share/zsh/vendor-completions/_pith-check'
check "a CMake consumer links pith::pith and verifies the sample bundle" \
  'cd /tmp/t/consumer && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build >/dev/null &&
   build/verify-bundle ../registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json | grep -q "verified pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"'
say "done: $failures failure(s)"
# The root and the source copy weigh 2.5 GB: kept to look into after a
# failure (or with PITH_KEEP_TEST_FILES), removed after a pass. The
# debootstrap tarball and apt's downloads stay in $cache for the next run.
if ((failures == 0)) && [[ -z ${PITH_KEEP_TEST_FILES:-} ]]; then
  cleanup
  rm -rf --one-file-system "$root" "$out/src"
fi
exit $((failures > 0))
