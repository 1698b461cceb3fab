#!/usr/bin/python3
"""The machine's best sgemm for each product of a pass: attnlab's GEMM bound with OpenBLAS beside it.

`attnlab-cli bench DIR --gemm-bound --json` times every matrix product of a pass with Eigen's sgemm and with
attnlab's own (core/ops/gemm.h) and keeps the faster. This script reads that JSON line and times each distinct
product shape again with OpenBLAS (torch.mm on Debian's PyTorch, which calls OpenBLAS's sgemm), on 1 and on 2
OpenBLAS threads, the faster kept. For each product the best of the three libraries is the yardstick: where the
machine's sgemm is itself the limit, the pass's distance from this sum says how far from it the pass is.

As attnlab's bound does, a product whose B is a weight (`b_is_weight`) is timed with B as a pass meets it, each
weight read once: at each product the next of copies filling as many bytes as the pass's weights (at most 512 MiB;
from memory unless they fit in a cache). The sums with every operand in cache are given beside.

Prints one line of JSON:
  bound_ms            Σ over products of count × min(attnlab's bound for it, OpenBLAS's time), weights from memory
  cached_bound_ms     the same with every operand in cache
  openblas_ms         Σ of OpenBLAS's times alone (weights from memory)
  attnlab_bound_ms    the input's sum (Eigen or attnlab's gemm, the faster)
  gflop, gflops       the products' work, and the best bound's rate
  products            each product's shape, count, its OpenBLAS time and thread count, and which library won

  /usr/bin/python3 bench/openblas_bound.py BOUND.json      (one line of attnlab-cli bench --gemm-bound --json)
"""
import argparse
import ctypes
import json
import statistics
import time

import torch


def openblas_library():
    """The libopenblas PyTorch loaded, to set its thread count (torch.set_num_threads does not reach it)."""
    torch.mm(torch.ones(2, 2), torch.ones(2, 2))  # make sure the BLAS is loaded
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "libopenblas" in line})
    for path in paths:
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_set_num_threads"):
            return lib
    raise SystemExit("openblas_bound.py: this PyTorch does not call OpenBLAS (no libopenblas in its maps)")


def median_ms(multiply, per):
    """Median milliseconds of multiply() ÷ per: at least 3 runs and about 0.1 s of them, after a warm-up."""
    multiply()
    times = []
    start = time.perf_counter()
    while len(times) < 3 or time.perf_counter() - start < 0.1:
        t0 = time.perf_counter()
        multiply()
        times.append((time.perf_counter() - t0) * 1000 / per)
    return statistics.median(times)


STREAM_BYTES = 512 << 20  # as attnlab's bound: more than a CPU's last-level cache; at most the pass's weights


class Stream:
    """B for each product: the same `count` matrices (in cache after the first product), or, streamed, the next of
    copies of them filling Stream.floats (the pass's weights, at most STREAM_BYTES), views of one buffer made once."""

    buffer = None
    floats = STREAM_BYTES // 4  # set from the pass's weights by main()

    def __init__(self, count, k, n, streamed):
        size = count * k * n
        if not streamed:
            self.b = [torch.randn(count, k, n)]
        else:
            if Stream.buffer is None or Stream.buffer.numel() < max(Stream.floats, size):
                Stream.buffer = torch.rand(max(Stream.floats, size)) * 2 - 1
            self.b = [Stream.buffer[i * size:(i + 1) * size].view(count, k, n)
                      for i in range(max(Stream.floats, size) // size)]
        self.next = 0

    def __call__(self):
        b = self.b[self.next % len(self.b)]
        self.next += 1
        return b


def time_product(m, k, n, count, streamed):
    """Milliseconds of one (m, k)·(k, n) product into a preallocated output: one torch.mm, or, for a shape the pass
    multiplies `count` > 1 times (a layer's maps, every head's QKᵀ), one torch.bmm of all of them ÷ count where that
    is faster (Python's call then costs no tiny product). `streamed`: B read from memory."""
    a, out = torch.randn(count, m, k), torch.empty(count, m, n)
    one, stack = Stream(1, k, n, streamed), Stream(count, k, n, streamed)
    ms = median_ms(lambda: torch.mm(a[0], one()[0], out=out[0]), 1)
    if count > 1:
        ms = min(ms, median_ms(lambda: torch.bmm(a, stack(), out=out), count))
    return ms


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bound", help="a file holding one line of `attnlab-cli bench --gemm-bound --json`")
    args = parser.parse_args()
    with open(args.bound) as f:
        ours = json.loads(f.readline())
    torch.set_num_threads(1)
    lib = openblas_library()
    weights = sum(p["k"] * p["n"] * p["count"] for p in ours["products"] if p["b_is_weight"])
    Stream.floats = min(weights, STREAM_BYTES // 4)
    timed = {}  # (m, k, n, count, streamed) -> (ms each, threads)
    for p in ours["products"]:
        for streamed in {False, p["b_is_weight"]}:
            shape = (p["m"], p["k"], p["n"], p["count"], streamed)
            if shape in timed:
                continue
            best = None
            for threads in (1, 2):
                lib.openblas_set_num_threads(threads)
                ms = time_product(*shape)
                if best is None or ms < best[0]:
                    best = (ms, threads)
            timed[shape] = best
    products, bound_ms, cached_bound_ms, openblas_ms = [], 0.0, 0.0, 0.0
    for p in ours["products"]:
        shape = (p["m"], p["k"], p["n"], p["count"])
        ms_each, threads = timed[shape + (p["b_is_weight"],)]
        cached_ms_each = timed[shape + (False,)][0]
        winner = "openblas" if ms_each < p["ms_each"] else p["kernel"]
        bound_ms += p["count"] * min(ms_each, p["ms_each"])
        cached_bound_ms += p["count"] * min(cached_ms_each, p["cached_ms_each"])
        openblas_ms += p["count"] * ms_each
        products.append({"what": p["what"], "m": p["m"], "k": p["k"], "n": p["n"], "count": p["count"],
                         "b_is_weight": p["b_is_weight"], "openblas_ms_each": round(ms_each, 4),
                         "openblas_cached_ms_each": round(cached_ms_each, 4), "openblas_threads": threads,
                         "attnlab_bound_ms_each": p["ms_each"], "best": winner})
    print(json.dumps({"impl": "best sgemm", "bound_ms": round(bound_ms, 3),
                      "cached_bound_ms": round(cached_bound_ms, 3), "openblas_ms": round(openblas_ms, 3),
                      "attnlab_bound_ms": ours["bound_ms"], "gflop": ours["gflop"],
                      "gflops": round(ours["gflop"] / (bound_ms / 1000), 1), "products": products}))


if __name__ == "__main__":
    main()
