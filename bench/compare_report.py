"""What the comparisons' tables share (compare_common.sh's `report` makes this importable): the JSON lines each
run appended to a file of $COMPARE_WORK, medians, units, and the line that names the machine and its load."""
import datetime
import json
import os
import statistics

WORK = os.environ.get("COMPARE_WORK", ".")


def runs(name):
    """The JSON objects, one a line, of the file `name` in the scratch folder."""
    with open(os.path.join(WORK, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def median(rows, key):
    return statistics.median(r[key] for r in rows)


def ms(x):
    return f"{x / 1000:.2f} s" if x >= 1000 else f"{x:.1f} ms"


def mb(x):
    return f"{x / 1024:.2f} GiB" if x >= 1024 else f"{x:.0f} MiB"


def fastest_threads(rows, key="median_ms"):
    """PyTorch's runs at several thread counts -> (the count whose median of `key` is lowest, its runs)."""
    by_threads = {n: [r for r in rows if r["threads"] == n] for n in sorted({r["threads"] for r in rows})}
    best = min(by_threads, key=lambda n: median(by_threads[n], key))
    return best, by_threads[best]


def threads_label(threads, rows):
    """PyTorch's own thread count and, when its runs recorded it, OpenBLAS's: '1; OpenBLAS 2'."""
    blas = sorted({r["blas_threads"] for r in rows if r.get("blas_threads")})
    return f"{threads}; OpenBLAS {'/'.join(map(str, blas))}" if blas else f"{threads}"


def machine_line(threads, rounds):
    e = os.environ
    return (f"{datetime.date.today().isoformat()}, attnlab {e['COMPARE_COMMIT']}: {e['COMPARE_CPU']}, "
            f"{e['COMPARE_CORES']} cores, {e['COMPARE_ISA']}; load average {e['COMPARE_LOAD_BEFORE']} before, "
            f"{e['COMPARE_LOAD_AFTER']} after; attnlab on {threads} threads; medians of {rounds} alternating round(s)")


def bound_kernels_line(bounds):
    """The footnote naming the kernels and splits the GEMM bound runs (`attnlab-cli bench --gemm-bound --json`)
    kept."""
    kernels = sorted({f"{p['kernel']} ({p['split']})" for r in bounds for p in r["products"]})
    return "GEMM bound: each product's fastest way among those timed: " + ", ".join(kernels) + "."
