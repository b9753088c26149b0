#!/usr/bin/env bash
# CI step: the HTML reports in a real browser (tools/check_browser.py), with Chromium required.
# Usage: tools/ci_browser.sh BIN [DEMO_DIR]
#   BIN       a built framescope executable
#   DEMO_DIR  a finished `framescope demo --out-dir DEMO_DIR` to check instead of running a demo
# Installs Debian's chromium with apt-get when it is missing, and says so. Screenshots go to
# .build/browser/ (demo.png, chrome-trace.png, large.png).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: tools/ci_browser.sh BIN [DEMO_DIR]}
if ! command -v chromium >/dev/null 2>&1; then
    echo "chromium is missing: installing Debian's chromium package with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ $# -ge 2 ]; then
    python3 tools/check_browser.py "$binary" --require --demo-dir "$2"
else
    python3 tools/check_browser.py "$binary" --require
fi
