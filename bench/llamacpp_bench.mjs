// llama.cpp's side of bench/compare_llamacpp.sh, through node-llama-cpp's Node API (its prebuilt CPU binary): loads
// a GGUF on the CPU (no GPU layers, F32 K and V caches, no flash attention, THREADS threads) and prints one line of
// JSON.
//   node bench/llamacpp_bench.mjs time GGUF --vocab V --prefill 1023 --decode 9 [--threads 2] [--reps 3]
//       the prefill of PREFILL random ids in [3, V) in one batch (evaluateWithoutGeneratingNewTokens; median of REPS, each in a
//       fresh sequence), then DECODE greedy steps after it, each timed alone: one token evaluated at positions
//       PREFILL, PREFILL + 1, ... and the next one sampled from its logits (the first yields of evaluate()).
//   node bench/llamacpp_bench.mjs greedy GGUF --ids 5,17,... --steps 16 [--threads 2]
//       STEPS greedy steps after the ids, each token the argmax of the next-token logits before it; prints the
//       tokens and those logits.
// Run with NODE_PATH naming the node_modules that holds node-llama-cpp (compare_llamacpp.sh installs it).
import { createRequire } from "node:module";
import process from "node:process";

const require = createRequire(import.meta.url);
const { getLlama } = await import(require.resolve("node-llama-cpp", { paths: (process.env.NODE_PATH || "").split(":") }));

function flags(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const [mode, gguf, ...rest] = process.argv.slice(2);
const opt = flags(rest);
const threads = Number(opt.threads || 2);
const llama = await getLlama({ gpu: false, build: "never", maxThreads: threads, logLevel: "error" });
const t0 = performance.now();
const model = await llama.loadModel({ modelPath: gguf, gpuLayers: 0 });
const openMs = performance.now() - t0;
const contextOf = (n) =>
  model.createContext({
    contextSize: n, batchSize: n, threads, flashAttention: false,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
  });

if (mode === "time") {
  const prefill = Number(opt.prefill), decode = Number(opt.decode), reps = Number(opt.reps || 3);
  const vocab = Number(opt.vocab);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const ids = Array.from({ length: prefill + 1 }, () => 3 + Math.floor(rand() * (vocab - 3)));
  const context = await contextOf(prefill + decode + 8);
  const prefillMs = [];
  const stepMs = [];
  for (let r = 0; r < reps; ++r) {
    const sequence = context.getSequence();
    const t1 = performance.now();
    await sequence.evaluateWithoutGeneratingNewTokens(ids.slice(0, prefill));
    prefillMs.push(performance.now() - t1);
    if (r === reps - 1) {  // the decode steps after the last prefill
      let t = performance.now();
      for await (const _ of sequence.evaluate([ids[prefill]], { temperature: 0, yieldEogToken: true })) {
        const now = performance.now();
        stepMs.push(now - t);
        t = now;
        if (stepMs.length === decode) break;
      }
    }
    sequence.dispose();
  }
  console.log(JSON.stringify({
    impl: "llama.cpp", binary: "node-llama-cpp", threads: context.currentThreads, kv_cache: [context.kvCacheKeyType, context.kvCacheValueType],
    flash_attention: context.flashAttention, open_ms: openMs, prefill_tokens: prefill, prefill_median_ms: median(prefillMs),
    prefill_ms: prefillMs, decode_position: prefill, decode_steps_ms: stepMs, decode_median_ms: median(stepMs),
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
  }));
} else if (mode === "greedy") {
  const ids = opt.ids.split(",").map(Number), steps = Number(opt.steps || 16);
  const context = await contextOf(ids.length + steps + 8);
  const sequence = context.getSequence();
  // the logits of the last id of `input` (earlier ids evaluated without outputs), as an array over the vocabulary
  const logitsAfter = async (input) => {
    const out = await sequence.controlledEvaluate([...input.slice(0, -1), [input.at(-1), { generateNext: { logits: true } }]]);
    const row = [];
    for (const [token, value] of out.at(-1).next.logits) row[token] = value;
    return row;
  };
  const argmax = (row) => row.reduce((best, v, i) => (v > row[best] ? i : best), 0);
  const logits = [await logitsAfter(ids)];  // (STEPS, V): before each greedy token
  while (logits.length < steps) logits.push(await logitsAfter([argmax(logits.at(-1))]));
  console.log(JSON.stringify({ impl: "llama.cpp", ids, logits: logits, greedy: logits.map(argmax) }));
} else {
  throw new Error(`unknown mode ${mode}: time or greedy`);
}
await model.dispose();
