#!/usr/bin/env bash
# Regenerates the two sample traces in Traces/ that the check/compare tests and the documentation's
# examples use (Sources/FrameScope/FrameScope.docc: ContinuousIntegration.md's check and compare
# runs, CommandLineReference.md's sample report). They record real time, so every run differs:
# regenerate only on purpose, then update those examples and the counts the CLI tests expect.
# (The committed ones were made with a debug build, where reload clearly overruns 60 Hz.)
set -euo pipefail
cd "$(dirname "$0")/.."
for strategy in reload snapshot-diff; do
    swift run framescope simulate diffable-update --strategy "$strategy" --frames 120 --seed 1 --clock real \
        --out "Traces/diffable-update--$strategy.json" > /dev/null
done
ls -l Traces/*.json
