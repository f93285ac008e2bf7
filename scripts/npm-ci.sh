#!/usr/bin/env bash
# npm-ci.sh installs DIR/node_modules from DIR/package-lock.json, as
# `npm ci` does, for make testdeps:
#
#   npm-ci.sh DIR [EXECUTABLE...]
#
# EXECUTABLE are paths under DIR/node_modules made executable after the
# install (globs; every install runs with --ignore-scripts, so a
# package's own install script does not).
#
# A finished install is kept in a cache keyed by what decides its bytes:
# the lock file, the npm ci command line, node's and npm's versions and
# the machine's architecture. The next clone or worktree with the same
# lock copies it (cp -a: its own files, so nothing a test or a person
# changes in one clone reaches another) instead of running npm ci: in a
# fresh clone make testdeps' five directories took 36 CPU-s with npm ci
# and 2.5 copied (bench/README.md, issue 13). Go's build cache does the
# same for the test binaries' packages.
#
# The cache is RUBRIC_NPM_CACHE, or rubric-testdeps under XDG_CACHE_HOME
# (default ~/.cache; with neither that nor HOME set, none): beside
# rubric's answer cache (XDG_CACHE_HOME/rubric), not in it.
# RUBRIC_NPM_CACHE=off runs npm ci every time and keeps nothing. Delete
# the folder to empty it.
set -euo pipefail
dir=${1:?usage: npm-ci.sh DIR [EXECUTABLE...]}
shift
npm_ci=(npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error)

install() {
	"${npm_ci[@]}" --prefix "$dir"
	local glob f
	for glob in "$@"; do
		for f in "$dir"/node_modules/$glob; do
			[ -e "$f" ] || { echo "npm-ci.sh: $dir: nothing installed at node_modules/$glob" >&2; return 1; }
			chmod u+x "$f"
		done
	done
}

base=${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}
cache=${RUBRIC_NPM_CACHE:-${base:+$base/rubric-testdeps}}
cache=${cache:-off}
if [ "$cache" = off ]; then
	install "$@"
	exit 0
fi

key=$({
	cat "$dir/package-lock.json"
	echo "${npm_ci[*]}" "$*"
	node --version
	npm --version
	uname -m
} | sha256sum | cut -c1-32)
kept=$cache/$key

if [ -d "$kept/node_modules" ]; then
	rm -rf "$dir/node_modules"
	cp -a "$kept/node_modules" "$dir/node_modules"
	# cp -a kept the time npm wrote it; make compares it with the lock.
	touch "$dir/node_modules/.package-lock.json"
	exit 0
fi

install "$@"
# Kept under a name of its own first, then renamed: a make test beside
# this one sees the whole install or none of it. An install that cannot
# be kept (a cache folder that cannot be written) is still an install.
mkdir -p "$cache" 2>/dev/null && tmp=$(mktemp -d "$cache/.$key.XXXXXX" 2>/dev/null) || exit 0
if cp -a "$dir/node_modules" "$tmp/node_modules"; then
	mv -T "$tmp" "$kept" 2>/dev/null || true # else another make test kept it first
fi
rm -rf "$tmp"
