#!/usr/bin/env bash
# Redraws the layer pictures in docs/architecture.md from the build's own target graph:
# CMake configures the tree into a scratch folder with --graphviz, and the project's
# libraries and their direct links (tests, benchmarks and outside libraries left out,
# edges implied by a longer path dropped) become two Mermaid charts: the project's
# layers (engine/ as one box) and engine/'s folders (each its npu_engine_<folder>
# library). The pictures are what the build links, so they cannot drift.
# --check: only verify them (the architecture_doc test does).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=update
[ "${1:-}" = "--check" ] && mode=check
doc=docs/architecture.md

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if ! cmake -S . -B "$scratch" -G Ninja --graphviz="$scratch/targets.dot" >"$scratch/configure.log" 2>&1; then
  cat "$scratch/configure.log" >&2
  echo "update-architecture: configuring the tree for its target graph failed" >&2
  exit 1
fi

# Edges "a -> b" between the project's libraries and its program, from the comments
# cmake --graphviz writes after each edge.
grep -o '// [^ ]* -> [^ ]*$' "$scratch/targets.dot" | sed 's|^// ||; s| -> | |' |
  grep -E '^(npu_[a-z_]+|npustudio) npu_[a-z_]+$' | sort -u >"$scratch/edges"

# chart NAME-MAP: the edges with each name mapped (awk program fragment), self-edges and
# those another path implies dropped, in a stable order.
chart() {
  awk "$1"'
    { a = map($1); b = map($2); if (a != "" && b != "" && a != b) { e[a, b] = 1; n[a] = 1; n[b] = 1 } }
    END {
      for (x in n) for (y in n) r[x, y] = ((x, y) in e)
      for (k in n) for (x in n) if (r[x, k]) for (y in n) if (r[k, y]) r[x, y] = 1
      for (pair in e) {
        split(pair, p, SUBSEP); implied = 0
        for (k in n) if (k != p[1] && k != p[2] && ((p[1], k) in e) && r[k, p[2]]) implied = 1
        if (!implied) print "  " p[1] " --> " p[2]
      }
    }' "$scratch/edges" | sort
}
project_chart=$(chart '
  function map(t) {
    if (t == "npustudio") return "app"
    if (t ~ /^npu_engine/) return "engine"
    sub(/^npu_/, "", t); return t
  }')
engine_chart=$(chart '
  function map(t) {
    if (t == "npu_base") return "base"
    if (t == "npu_engine" || t !~ /^npu_engine_/) return ""
    sub(/^npu_engine_/, "", t); return t
  }')

# Replaces the text between <!-- NAME-layers: ... --> and <!-- /NAME-layers --> with its chart.
render() {
  printf '```mermaid\nflowchart BT\n%s\n```\n' "$1"
}
render "$project_chart" >"$scratch/project.chart"
render "$engine_chart" >"$scratch/engine.chart"
awk -v dir="$scratch" '
  /^<!-- (project|engine)-layers: / {
    print; name = ($0 ~ /project-layers/) ? "project" : "engine"; found[name] = 1; skip = 1
    while ((getline line < (dir "/" name ".chart")) > 0) print line
    next
  }
  /^<!-- \/(project|engine)-layers -->/ { skip = 0 }
  !skip { print }
  END { if (!found["project"] || !found["engine"]) exit 3 }' "$doc" >"$scratch/doc.md" || {
  echo "$doc: the project-layers or engine-layers markers are missing" >&2
  exit 1
}
if cmp -s "$doc" "$scratch/doc.md"; then
  echo "$doc: the layer pictures are the build's target graph"
elif [ "$mode" = check ]; then
  diff -u "$doc" "$scratch/doc.md" >&2 || true
  echo "$doc: the layer pictures differ from the build's target graph; run scripts/update-architecture.sh" >&2
  exit 1
else
  cp "$scratch/doc.md" "$doc"
  echo "$doc: layer pictures rewritten from the build's target graph"
fi
