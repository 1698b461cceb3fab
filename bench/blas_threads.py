"""How many threads the OpenBLAS under PyTorch runs its GEMMs on.

torch.set_num_threads sets PyTorch's own intra-op threads, not OpenBLAS's: Debian's PyTorch calls OpenBLAS,
whose pthreads build uses every core unless OPENBLAS_NUM_THREADS says otherwise. So a "1 thread" PyTorch run
still multiplies on 2 cores, and the reports say so.
"""
import ctypes


def openblas_threads():
    """The thread count of the libopenblas this process has loaded, or None when it has loaded none."""
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "libopenblas" in line})
    for path in paths:
        try:
            return int(ctypes.CDLL(path).openblas_get_num_threads())
        except (OSError, AttributeError):
            continue
    return None
