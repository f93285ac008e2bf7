#!/usr/bin/env node
// Makes the npm packages of a GoReleaser build: the main package
// @rubricmcp/rubric (npm/rubric) at the build's version, with its optional
// dependencies pinned to that version, and one package per platform,
// @rubricmcp/rubric-<platform>-<arch>, holding that platform's binary with
// os and cpu fields so that npm installs only the one that matches.
//
//   node npm/build.mjs DIST OUT [PLATFORM...]
//
// DIST is GoReleaser's dist/ (its metadata.json and artifacts.json say
// the version and where each binary is); OUT receives one folder per
// package. PLATFORM (such as linux-x64) limits the platform packages
// made; the main package names all six whatever is made.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [dist, out, ...only] = process.argv.slice(2);
if (!dist || !out) {
  console.error("usage: node npm/build.mjs DIST OUT [PLATFORM...]");
  process.exit(2);
}

// GoReleaser's names for what Node calls process.platform and process.arch.
const goos = { linux: "linux", darwin: "darwin", windows: "win32" };
const goarch = { amd64: "x64", arm64: "arm64" };

const readJSON = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
const { version } = readJSON(path.join(dist, "metadata.json"));
const binaries = readJSON(path.join(dist, "artifacts.json")).filter((a) => a.type === "Binary");

const main = readJSON(path.join(here, "rubric", "package.json"));
main.version = version;
const platforms = [];
for (const name of Object.keys(main.optionalDependencies)) {
  main.optionalDependencies[name] = version;
  platforms.push(name.replace("@rubricmcp/rubric-", ""));
}
for (const p of only) {
  if (!platforms.includes(p)) {
    console.error(`no platform ${p}: name one of ${platforms.join(", ")}`);
    process.exit(2);
  }
}

fs.rmSync(out, { recursive: true, force: true });
const mainDir = path.join(out, "rubric");
fs.mkdirSync(path.join(mainDir, "bin"), { recursive: true });
fs.writeFileSync(path.join(mainDir, "package.json"), JSON.stringify(main, null, 2) + "\n");
for (const f of ["README.md", "bin/rubric.js"]) {
  fs.copyFileSync(path.join(here, "rubric", f), path.join(mainDir, f));
}
fs.chmodSync(path.join(mainDir, "bin/rubric.js"), 0o755);

// A platform's package holds rubric and, beside it, the file transport's
// own binary (rubric-transport-file), which rubric starts from its own
// directory: every binary GoReleaser built for the platform, by its name.
const byPlatform = new Map();
for (const b of binaries) {
  const os = goos[b.goos], cpu = goarch[b.goarch];
  if (!os || !cpu) continue;
  const platform = `${os}-${cpu}`;
  if (only.length > 0 && !only.includes(platform)) continue;
  if (!byPlatform.has(platform)) byPlatform.set(platform, { os, cpu, binaries: [] });
  byPlatform.get(platform).binaries.push(b);
}
for (const [platform, { os, cpu, binaries: bins }] of byPlatform) {
  const dir = path.join(out, `rubric-${platform}`);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const files = [];
  for (const b of bins) {
    // GoReleaser writes paths relative to the project, dist/'s parent.
    const src = path.isAbsolute(b.path) ? b.path : path.resolve(dist, "..", b.path);
    const exe = path.basename(src);
    fs.copyFileSync(src, path.join(dir, "bin", exe));
    fs.chmodSync(path.join(dir, "bin", exe), 0o755);
    files.push(`bin/${exe}`);
    console.log(`@rubricmcp/rubric-${platform}@${version}: ${src}`);
  }
  files.sort();
  const pkg = {
    name: `@rubricmcp/rubric-${platform}`,
    version,
    description: `The rubric binary for ${platform}, installed by @rubricmcp/rubric.`,
    repository: main.repository,
    os: [os],
    cpu: [cpu],
    files,
    preferUnplugged: true,
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  fs.writeFileSync(path.join(dir, "README.md"), `# ${pkg.name}\n\n${pkg.description} Install @rubricmcp/rubric instead.\n`);
}
console.log(`${main.name}@${version}`);
