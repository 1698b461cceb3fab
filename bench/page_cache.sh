# shellcheck shell=bash
# Sourced by the benchmarks that time a cold open (compare_torch_llama.sh, bench_1b.sh):
#   evict DIR   drops DIR's weight files (*.safetensors) from the page cache (posix_fadvise DONTNEED on those files
#               alone), so the next open reads them from the disk.
evict() {
  /usr/bin/python3 -c '
import os, sys
for path in sys.argv[1:]:
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' "$1"/*.safetensors
}
