#!/bin/sh
# Seeds the project-loader fuzz corpus: every project.json of the test data and samples
# (plus any under ../shared/data). Usage: seed_corpus_projects.sh SOURCE_DIR CORPUS_DIR
set -e
src="$1"; corpus="$2"
mkdir -p "$corpus"
i=0
for f in "$src"/tests/data/projects/*/project.json "$src"/projects/*/project.json "$src"/../shared/data/*/project*.json; do
  [ -f "$f" ] || continue
  i=$((i + 1))
  cp "$f" "$corpus/project_$i.json"
done
echo "seeded $i project files into $corpus"
