#!/bin/sh
# Seeds the ONNX fuzz corpus: the small project test models and every 8th libonnx-testdata model.
# Usage: seed_corpus.sh SOURCE_DIR CORPUS_DIR
set -e
src="$1"; corpus="$2"
mkdir -p "$corpus"
cp "$src/tests/data/models/resnet18_noweights.onnx" "$corpus/"
i=0
for f in /usr/share/libonnx-testdata/data/node/test_*/model.onnx /usr/share/libonnx-testdata/data/pytorch-*/*/model.onnx; do
  [ -f "$f" ] || continue
  i=$((i + 1))
  if [ $((i % 8)) -eq 0 ]; then cp "$f" "$corpus/seed_$i.onnx"; fi
done
echo "seeded $(ls "$corpus" | wc -l) files into $corpus"
