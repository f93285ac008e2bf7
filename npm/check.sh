#!/usr/bin/env bash
# Checks the npm packages the way a user meets them: builds them from the
# GoReleaser snapshot in dist/ (make release-snapshot), packs the main
# package and this machine's platform package with npm pack, installs
# the two tarballs into a scratch project with npm's cache empty and
# --offline (so nothing comes from a registry), and runs npx rubric on a
# corpus capture.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist="${DIST:-$root/dist}"
if [ ! -f "$dist/artifacts.json" ]; then
  echo "npm/check.sh: no GoReleaser build in $dist: run make release-snapshot first" >&2
  exit 2
fi
platform=$(node -p 'process.platform + "-" + process.arch')
version=$(node -p "require('$dist/metadata.json').version")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export npm_config_cache="$work/npm-cache" npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

node "$root/npm/build.mjs" "$dist" "$work/pkgs" "$platform"
mkdir "$work/tgz"
npm pack --silent --pack-destination "$work/tgz" "$work/pkgs/rubric" "$work/pkgs/rubric-$platform"
ls "$work/tgz"

mkdir "$work/app"
cd "$work/app"
echo '{"name": "scratch", "version": "1.0.0", "private": true}' > package.json
# The other platforms' packages exist nowhere yet: npm, offline, skips
# them as optional dependencies whose os or cpu does not match.
npm install --offline --loglevel=error "$work"/tgz/*.tgz

npx --offline rubric version | tee version.txt
grep -qx "rubric $version" version.txt
npx --offline @rubricmcp/rubric score --rubric schema-quality "$root/engine/score/testdata/corpus/filesystem.tools.json" | tee score.txt
grep -q '^schema-quality .* · 14 tools$' score.txt
echo "npm/check.sh: @rubricmcp/rubric@$version and @rubricmcp/rubric-$platform installed offline and scored a capture"
