#!/usr/bin/env bash
# Updates the Discord Embedded App SDK that the Activity's page loads
# (docs/discord.md, "Inside Discord: the Activity"): one minified ES module,
# discord-sdk.mjs, bundled by esbuild from the npm package, and the licences
# of the SDK and of every package the bundle holds (the SDK vendors its
# dependencies under output/lib), in LICENSES.txt. Only this script needs
# Node.js and npm: the program embeds the files committed here, so
# `go run` and `go build` need no JavaScript tool chain.
#
#   bash assets/discordsdk/update.sh            # the version below
#   bash assets/discordsdk/update.sh 2.6.0      # another one
set -euo pipefail
version="${1:-2.5.0}"
esbuild_version="0.28.2"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --ignore-scripts --save-exact \
  "@discord/embedded-app-sdk@$version" "esbuild@$esbuild_version" >/dev/null
# esbuild's binary comes in an optional package of its platform, which
# --ignore-scripts leaves unchecked: it runs or the script stops here.
./node_modules/.bin/esbuild --version >/dev/null
echo 'export * from "@discord/embedded-app-sdk";' >entry.mjs
./node_modules/.bin/esbuild entry.mjs --bundle --format=esm --minify --target=es2020 \
  --legal-comments=none --metafile=meta.json --outfile=discord-sdk.mjs --log-level=warning

cat >licences.js <<'JS'
// node licences.js list: the packages whose files are in the bundle.
// node licences.js write: LICENSES.txt, each one's licence in full.
const fs = require("fs"), path = require("path");
const meta = JSON.parse(fs.readFileSync("meta.json", "utf8"));
const pkgs = new Set(["@discord/embedded-app-sdk"]);
for (const input of Object.keys(meta.outputs["discord-sdk.mjs"].inputs)) {
  const m = /\/output\/lib\/((?:@[^/]+\/)?[^/]+)\//.exec(input) || /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) pkgs.add(m[1]);
}
const names = [...pkgs].sort();
if (process.argv[2] === "list") {
  console.log(names.filter((n) => !fs.existsSync(path.join("node_modules", n, "package.json"))).join("\n"));
  process.exit(0);
}
let out = "The licences of discord-sdk.mjs: the Discord Embedded App SDK and the packages it bundles.\n";
for (const name of names) {
  const dir = path.join("node_modules", name);
  const pj = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (!file) throw new Error("no licence file in " + name);
  out += "\n" + "=".repeat(72) + "\n" + name + " (" + pj.license + ")\n" + "=".repeat(72) + "\n\n";
  out += fs.readFileSync(path.join(dir, file), "utf8").trim() + "\n";
}
fs.writeFileSync("LICENSES.txt", out);
JS
# A package the SDK vendors without depending on it (tslib) is installed
# for its licence only.
missing=$(node licences.js list)
if [ -n "$missing" ]; then
  # shellcheck disable=SC2086
  npm install --no-audit --no-fund --ignore-scripts --no-save $missing >/dev/null
fi
node licences.js write
{
  echo "// The Discord Embedded App SDK $version (npm @discord/embedded-app-sdk, MIT), bundled with what it"
  echo "// vendors by assets/discordsdk/update.sh (esbuild $esbuild_version): do not edit. Licences: LICENSES.txt."
  cat discord-sdk.mjs
} >"$here/discord-sdk.mjs"
cp LICENSES.txt "$here/LICENSES.txt"
ls -l "$here"
