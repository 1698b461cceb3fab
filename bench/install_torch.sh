# Sourced by the PyTorch comparisons: installs Debian's python3-torch and libopenblas0-pthread if missing.
missing=()
for p in python3-torch libopenblas0-pthread; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi

# OpenBLAS picks its kernels from the CPU it recognises; a CPU it does not know (a VM's "Intel(R) Xeon(R)
# Processor", say) gets its generic Prescott (SSE3) kernels, at a third of the speed (64x768x2304 sgemm, one
# thread: 60 against 150 GFLOP/s with SkylakeX's). Unless the caller chose OPENBLAS_CORETYPE, PyTorch gets the
# kernels of the instruction sets this CPU has, so it is compared at its best.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  if [[ " $flags " == *" avx512f "* && " $flags " == *" avx512bw "* && " $flags " == *" avx512vl "* ]]; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif [[ " $flags " == *" avx2 "* && " $flags " == *" fma "* ]]; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
