#!/usr/bin/env bash
# The command-line demo that run.sh starts: a seeded tiny English -> Korean model (random
# weights until a trained one is bundled), its steps, one traced sentence, and greedy decoding.
set -euo pipefail
cli="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build/demo"
mkdir -p "$out"
sentence="$(head -n 1 "$root/assets/examples/sentences.txt")"

echo "== a tiny Transformer (random weights, seed 1), English -> Korean vocabularies"
"$cli" init --preset tiny --seed 1 --src-vocab "$root/assets/vocab/en.txt" --tgt-vocab "$root/assets/vocab/ko.txt" \
  --out "$out/tiny.safetensors"
"$cli" info "$out/tiny.safetensors" | head -n 8
echo
echo "== the forward pass, step by step (first 14 of them)"
"$cli" steps "$out/tiny.safetensors" --src "$sentence" | head -n 42
echo
echo "== trace every step of: $sentence"
"$cli" trace "$out/tiny.safetensors" --src "$sentence" --tgt "나 는" --out "$out/trace.safetensors"
echo
echo "== greedy decoding from <sos> (untrained weights, so the words are arbitrary)"
"$cli" translate "$out/tiny.safetensors" --src "$sentence" --verbose
