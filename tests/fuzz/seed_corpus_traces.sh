#!/bin/sh
# Seeds the trace-import fuzz corpus with the small traces of the test data (plain and
# gzipped, Kineto, Ascend and per-rank files); the 200 KB ResNet trace is left out
# because every execution would parse all of it. Usage: seed_corpus_traces.sh SOURCE_DIR CORPUS_DIR
set -e
src="$1"; corpus="$2"
mkdir -p "$corpus"
i=0
for f in "$src"/tests/data/traces/*.json "$src"/tests/data/traces/*.json.gz "$src"/tests/data/traces/cluster/*.json; do
  [ -f "$f" ] || continue
  case "$f" in *resnet50*) continue ;; esac
  i=$((i + 1))
  cp "$f" "$corpus/trace_$i.$(echo "$f" | sed 's/.*\.json/json/')"
done
echo "seeded $i traces into $corpus"
