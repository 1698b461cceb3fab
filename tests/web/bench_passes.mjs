// attnlab-cli run in headless Chromium, for timing the passes in the browser against the desktop's:
//   node tests/web/bench_passes.mjs BENCH_DIR ARGS...
// e.g. node tests/web/bench_passes.mjs build-web/bench bench /tmp/attnlab-gpt2-124m --tgt-len 64 --json
// BENCH_DIR holds attnlab-cli.js and .wasm (cmake/web_page.cmake). Every ARG that is the absolute path of a file or
// folder is fetched into the page's memory file system at that path (a folder's files, not its subfolders), so
// the page runs the command line as given. The program's stdout goes to stdout, its stderr to stderr; the exit
// code is the program's (3 if the page failed, 4 if it took over TIMEOUT_S, 900 s by default).
//
// The page is served cross-origin isolated (COOP and COEP), which gives performance.now(), and so the program's
// steady_clock, 5 µs steps rather than 100 µs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CdpPipe } from "./cdp_pipe.mjs";
import { serveFolder } from "./static_server.mjs";

const [benchDir, ...args] = process.argv.slice(2);
if (!benchDir || args.length === 0) {
  console.error("usage: node tests/web/bench_passes.mjs BENCH_DIR ARGS...");
  process.exit(2);
}
const timeoutMs = Number(process.env.TIMEOUT_S ?? 900) * 1000;

// The served folder: the page, the program, and each path argument as a link f0, f1, ...
const served = fs.mkdtempSync(path.join(os.tmpdir(), "attnlab-bench-page-"));
const here = path.dirname(fileURLToPath(import.meta.url));
fs.symlinkSync(path.join(here, "bench_page.html"), path.join(served, "index.html"));
for (const name of ["attnlab-cli.js", "attnlab-cli.wasm"])
  fs.symlinkSync(path.resolve(benchDir, name), path.join(served, name));
const files = [];
args.forEach((arg) => {
  if (!path.isAbsolute(arg) || !fs.existsSync(arg)) return;
  const link = "f" + files.length;
  fs.symlinkSync(arg, path.join(served, link));
  if (fs.statSync(arg).isDirectory()) {
    for (const name of fs.readdirSync(arg))
      if (fs.statSync(path.join(arg, name)).isFile())
        files.push({ url: `${link}/${name}`, path: path.join(arg, name) });
  } else {
    files.push({ url: link, path: arg });
  }
});

const server = await serveFolder(served, { "Cross-Origin-Opener-Policy": "same-origin",
                                           "Cross-Origin-Embedder-Policy": "require-corp" });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "attnlab-bench-profile-"));
const browser = await CdpPipe.launch(["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
  "--disable-renderer-backgrounding", "--disable-background-timer-throttling", `--user-data-dir=${profile}`]);
let code = 3;
try {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const page = await browser.session(targetId);
  await page.send("Page.navigate",
                  { url: server.url + "index.html?run=" + encodeURIComponent(JSON.stringify({ args, files })) });
  const started = Date.now();
  let state = null;
  while (Date.now() - started < timeoutMs) {
    await new Promise((r) => setTimeout(r, 200));
    const { result } = await page.send("Runtime.evaluate", { returnByValue: true,
      expression: "typeof attnlabBench === 'object' ? attnlabBench : null" });
    state = result.value;
    if (state && (state.exitCode !== null || state.problem)) break;
  }
  if (state) {
    for (const line of state.stdout) console.log(line);
    for (const line of state.stderr) console.error(line);
  }
  if (state?.problem) {
    console.error("bench_passes: " + state.problem);
  } else if (!state || state.exitCode === null) {
    console.error(`bench_passes: no exit within ${timeoutMs / 1000} s`);
    code = 4;
  } else {
    code = state.exitCode;
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(served, { recursive: true, force: true });
  fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
