# shellcheck shell=bash disable=SC2154  # $root is the sourcing script's
# Sourced by the comparisons with PyTorch that print a markdown table (compare_torch_scale.sh,
# compare_torch_llama.sh), after they set $root (the repository): installs PyTorch if missing (install_torch.sh),
# makes the scratch folder $work (removed on exit), notes the load average, and defines
#   measure_round KEY CLI DIR TORCH_SCRIPT TOKENS REPS
#                          one round, the tools one after the other, each line of JSON appended to a file of
#                          $work: attnlab's traced pass (attnlab-KEY), PyTorch's untraced one at 1 and 2 threads
#                          (torch-KEY), the GEMM bound of the pass (bound-KEY), and the machine's best sgemm for each
#                          of its products, OpenBLAS's beside Eigen's and attnlab's (best-KEY, openblas_bound.py)
#   machine_facts          after the runs: exports what the table's first line says (compare_report.py reads it)
#   report ARGS... <<'PY'  runs the Python script on stdin with ARGS, compare_report.py importable
# ATTNLAB_COMMIT names the commit measured when git cannot (or should not) be asked.
source "$root/bench/install_torch.sh"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COMPARE_WORK="$work"
export COMPARE_LOAD_BEFORE
COMPARE_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

measure_round() {
  local key=$1 cli=$2 dir=$3 torch_script=$4 t=$5 reps=$6
  "$cli" bench "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --json >> "$work/attnlab-$key"
  /usr/bin/python3 "$root/bench/$torch_script" "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --threads 1 >> "$work/torch-$key"
  /usr/bin/python3 "$root/bench/$torch_script" "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --threads 2 >> "$work/torch-$key"
  "$cli" bench "$dir" --tgt-len "$t" --gemm-bound --json > "$work/bound-last"
  cat "$work/bound-last" >> "$work/bound-$key"
  /usr/bin/python3 "$root/bench/openblas_bound.py" "$work/bound-last" >> "$work/best-$key"
}

machine_facts() {
  export COMPARE_LOAD_AFTER COMPARE_CPU COMPARE_CORES COMPARE_ISA COMPARE_COMMIT
  COMPARE_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
  COMPARE_CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  COMPARE_CORES=$(nproc)
  local isa
  isa=$(grep -m1 -o -w -e avx512f -e avx2 /proc/cpuinfo | sort -u | tr '\n' ' ' || true)
  COMPARE_ISA="${isa% }; PyTorch on OpenBLAS's ${OPENBLAS_CORETYPE:-own choice of} kernels"
  COMPARE_COMMIT="${ATTNLAB_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo "?")}"
}

report() {
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/bench${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 - "$@"
}
