#!/usr/bin/env node
// Runs the prebuilt rubric binary of this platform. npm installs it as
// the optional dependency @rubricmcp/rubric-<platform>-<arch> whose os and
// cpu fields match the machine, and skips the others.
"use strict";

const { spawnSync } = require("child_process");

const platform = `${process.platform}-${process.arch}`;
const supported = ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-arm64", "win32-x64"];
const exe = process.platform === "win32" ? "rubric.exe" : "rubric";

function binary() {
  if (!supported.includes(platform)) {
    fail(`no prebuilt rubric for ${platform} (there is one for ${supported.join(", ")}); build it with: go install github.com/rubricmcp/rubric/cmd/rubric@latest`);
  }
  const pkg = `@rubricmcp/rubric-${platform}`;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(`the package ${pkg}, which holds rubric for this machine, is not installed: it is an optional dependency of @rubricmcp/rubric, so install again without --omit=optional (or --no-optional), or install ${pkg} itself`);
  }
}

function fail(msg) {
  process.stderr.write(`rubric: ${msg}\n`);
  process.exit(2);
}

const bin = binary();
// rubric reads signals itself (Ctrl-C stops a run between tools): the
// terminal sends them to it directly, since it shares this process group.
const res = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (res.error) {
  fail(`could not run ${bin}: ${res.error.message}`);
}
if (res.signal) {
  process.kill(process.pid, res.signal);
}
process.exit(res.status === null ? 2 : res.status);
