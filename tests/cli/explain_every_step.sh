#!/usr/bin/env bash
# attnlab-cli explain MODEL --step N exits 0 for every step of every model we ship or test
# against: each golden fixture (*.model.safetensors and the Hugging Face folders hf_*) and each
# bundled model (assets/models/*.safetensors, but not the training histories *.history.safetensors), in
# English and in Korean. One explain call per step per language. Usage: explain_every_step.sh ATTNLAB_CLI SOURCE_DIR
set -uo pipefail
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

fail() {  # fail MESSAGE: counts a failure and shows the last command's stderr
  echo "FAIL $1"; sed 's/^/  /' "$work/err" | head -n 5; failed=$((failed + 1))
}

models=("$root"/tests/golden/fixtures/*.model.safetensors "$root"/tests/golden/fixtures/hf_*)
for bundled in "$root"/assets/models/*.safetensors; do
  case "$bundled" in *.history.safetensors) ;; *) models+=("$bundled") ;; esac
done
[ "${#models[@]}" -ge 12 ] || { echo "FAIL found only ${#models[@]} models"; failed=$((failed + 1)); }

for model in "${models[@]}"; do
  name="${model#"$root"/}"
  # Ids every vocabulary here holds; a target where the model has one (an encoder_decoder),
  # else the source alone (encoder_only; decoder_only reads it as its prompt).
  inputs=(--src-ids 4,5,6,7,2 --tgt-ids 1,4,5)
  timeout 60 "$cli" steps "$model" "${inputs[@]}" > "$work/steps" 2> "$work/err"
  if [ $? -eq 2 ]; then
    inputs=(--src-ids 4,5,6,7,2)
    timeout 60 "$cli" steps "$model" "${inputs[@]}" > "$work/steps" 2> "$work/err"
  fi
  n=$(grep -cE '^ *[0-9]+  ' "$work/steps")
  if [ "$n" -eq 0 ]; then fail "$name: attnlab-cli steps listed no steps"; continue; fi
  for ((i = 0; i < n; i++)); do
    for language in english korean; do
      flag=()
      [ "$language" = korean ] && flag=(--korean)
      timeout 60 "$cli" explain "$model" "${inputs[@]}" --step "$i" --assets "$root/assets" "${flag[@]}" > "$work/out" 2> "$work/err"
      code=$?
      if [ "$code" -ne 0 ]; then fail "$name --step $i ($language): exit $code"
      elif ! grep -qE "^ *$i  " "$work/out"; then fail "$name --step $i ($language): step $i not printed"
      else passed=$((passed + 1)); fi
    done
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
