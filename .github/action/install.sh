#!/usr/bin/env bash
# Installs rubric for action.yml's later steps and writes its path to
# $GITHUB_OUTPUT as bin. VERSION "source" builds the action's checkout
# (ACTION_PATH) with the Go on the PATH; any other VERSION downloads
# rubric_<VERSION>_<os>_<arch> and checksums.txt from RELEASE_URL/v<VERSION>/
# and refuses an archive whose sha256 is not the one listed.
set -euo pipefail

dir="$RUNNER_TEMP/rubric-bin"
mkdir -p "$dir"
exe=rubric
# The file transport's own binary, which rubric starts from its own
# directory to read a surface file (else it starts itself again).
companion=rubric-transport-file
if [ "${RUNNER_OS:-}" = Windows ]; then exe=rubric.exe companion=rubric-transport-file.exe; fi

if [ "$VERSION" = source ]; then
  (cd "$ACTION_PATH" && go build -o "$dir/$exe" ./cmd/rubric && go build -o "$dir/$companion" ./cmd/rubric-transport-file)
  echo "bin=$dir/$exe" >> "$GITHUB_OUTPUT"
  exit 0
fi

case "${RUNNER_OS:-}" in
  Linux) os=linux ext=tar.gz ;;
  macOS) os=darwin ext=tar.gz ;;
  Windows) os=windows ext=zip ;;
  *) echo "::error::no rubric release for RUNNER_OS \"${RUNNER_OS:-}\"; set version: source to build it"; exit 2 ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) echo "::error::no rubric release for RUNNER_ARCH \"${RUNNER_ARCH:-}\"; set version: source to build it"; exit 2 ;;
esac

archive="rubric_${VERSION}_${os}_${arch}.$ext"
base="${RELEASE_URL%/}/v$VERSION"
fetch() { curl -fsSL --retry 3 -o "$2" "$1" || { echo "::error::could not download $1: check the version input ($VERSION) names a release"; exit 2; }; }
fetch "$base/$archive" "$dir/$archive"
fetch "$base/checksums.txt" "$dir/checksums.txt"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/checksums.txt")
if [ -z "$want" ]; then echo "::error::checksums.txt of $VERSION lists no $archive"; exit 2; fi
if command -v sha256sum > /dev/null; then got=$(sha256sum "$dir/$archive" | cut -d' ' -f1); else got=$(shasum -a 256 "$dir/$archive" | cut -d' ' -f1); fi
if [ "$got" != "$want" ]; then
  echo "::error::$archive has sha256 $got, but checksums.txt lists $want: the download is not the release; nothing was installed"
  exit 2
fi

# Archives before the companion hold rubric alone, which works by itself.
if [ "$ext" = zip ]; then
  unzip -qo "$dir/$archive" "$exe" -d "$dir"
  unzip -qo "$dir/$archive" "$companion" -d "$dir" 2> /dev/null || true
else
  # Both in one pass: tar reads the whole stream for each call. From an
  # archive without the companion tar extracts rubric, then fails on the
  # name it lacks, which is no failure here.
  rm -f "$dir/$exe" "$dir/$companion"
  if ! err=$(tar -xzf "$dir/$archive" -C "$dir" "$exe" "$companion" 2>&1) && [ ! -f "$dir/$exe" ]; then
    echo "$err" >&2
    echo "::error::$archive holds no $exe"
    exit 2
  fi
fi
echo "bin=$dir/$exe" >> "$GITHUB_OUTPUT"
