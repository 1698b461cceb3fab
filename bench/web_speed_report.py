#!/usr/bin/env python3
"""The tables of bench/web_speed.sh: python3 bench/web_speed_report.py OUT_DIR ROUNDS

OUT_DIR holds one JSON line per run and round: NAME.{page,desktop-1,desktop}.jsonl (attnlab-cli bench --json),
NAME.{page,desktop-1}.bound.jsonl (--gemm-bound --json) and frames-NAME.{page,desktop}.jsonl (--bench-frames).
Each figure is the median over the rounds of each run's own median (or p50, p95)."""
import json
import os
import statistics
import sys


def runs(out, file):
    path = os.path.join(out, file)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def median(out, file, key):
    values = [r[key] for r in runs(out, file) if key in r]
    return statistics.median(values) if values else float("nan")


def ms(x):
    return f"{x / 1000:.2f} s" if x >= 1000 else f"{x:.1f} ms" if x >= 10 else f"{x:.2f} ms"


def main():
    out, rounds = sys.argv[1], sys.argv[2]
    print(f"\nPasses (attnlab-cli bench, traced forward, median of each run's reps; medians of {rounds} rounds):\n")
    print("| pass | page (1 thread) | desktop 1 thread | desktop, default threads | page ÷ desktop 1 thread "
          "| page GEMM bound | desktop 1-thread GEMM bound | page ÷ its bound | desktop 1 thread ÷ its bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, label in [("en-ko", "bundled en-ko, 32+32 tokens"), ("gpt2-64", "GPT-2 small shape, 64 tokens")]:
        page = median(out, f"{name}.page.jsonl", "median_ms")
        one = median(out, f"{name}.desktop-1.jsonl", "median_ms")
        many = median(out, f"{name}.desktop.jsonl", "median_ms")
        threads = [r["threads"] for r in runs(out, f"{name}.desktop.jsonl")][:1] or ["?"]
        page_bound = median(out, f"{name}.page.bound.jsonl", "bound_ms")
        one_bound = median(out, f"{name}.desktop-1.bound.jsonl", "bound_ms")
        print(f"| {label} | {ms(page)} | {ms(one)} | {ms(many)} ({threads[0]}) | {page / one:.2f}× | {ms(page_bound)} "
              f"| {ms(one_bound)} | {page / page_bound:.2f}× | {one / one_bound:.2f}× |")
    print(f"\nFrames at 1600×900 (150 after 10 of warm-up; work = the frame's start until its drawing is done, of it "
          f"app = until its GL commands are issued; interval = between the page's animation frames; medians of "
          f"{rounds} rounds):\n")
    print("| view | page work p50 / p95 | of it app p50 | page interval p50 / p95 | desktop p50 / p95 "
          "| page ÷ desktop (p50) |")
    print("|---|---|---|---|---|---|")
    for name, label in [("attention", "attention view"), ("tour-3", "tour chapter 3, classroom")]:
        page = [median(out, f"frames-{name}.page.jsonl", k) for k in ("p50_ms", "p95_ms")]
        gap = [median(out, f"frames-{name}.page.jsonl", k) for k in ("interval_p50_ms", "interval_p95_ms")]
        app = median(out, f"frames-{name}.page.jsonl", "app_p50_ms")
        desk = [median(out, f"frames-{name}.desktop.jsonl", k) for k in ("p50_ms", "p95_ms")]
        print(f"| {label} | {page[0]:.1f} / {page[1]:.1f} ms | {app:.1f} ms | {gap[0]:.1f} / {gap[1]:.1f} ms "
              f"| {desk[0]:.1f} / {desk[1]:.1f} ms | {page[0] / desk[0]:.2f}× |")


if __name__ == "__main__":
    main()
