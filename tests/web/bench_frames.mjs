// The page's frame times in headless Chromium (app/web/page_bench.h):
//   node tests/web/bench_frames.mjs SITE_DIR "view=attention&bench-frames=150" [1600x900]
// opens SITE_DIR/index.html?QUERY&size=WxH in a WxH page and prints attnlabPage.bench as one line of JSON once the
// frames are timed: {"frames", "p50_ms", "p95_ms" (each frame's work to glFinish), "interval_p50_ms",
// "interval_p95_ms" (between animation frames), "width", "height"}. Exit code 1 if the page showed a problem or did
// not finish within 300 s. Chromium's WebGL2 here is SwiftShader's, in software, as the desktop's Xvfb is llvmpipe.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CdpPipe } from "./cdp_pipe.mjs";
import { serveFolder } from "./static_server.mjs";

const [site, query, size = "1600x900"] = process.argv.slice(2);
if (!site || !query || !query.includes("bench-frames")) {
  console.error('usage: node tests/web/bench_frames.mjs SITE_DIR "view=attention&bench-frames=150" [WxH]');
  process.exit(2);
}
const [width, height] = size.split("x").map(Number);
const server = await serveFolder(site);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "attnlab-bench-frames-"));
const browser = await CdpPipe.launch(["--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader", "--no-first-run", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--disable-dev-shm-usage", "--disable-renderer-backgrounding",
  "--disable-background-timer-throttling", `--user-data-dir=${profile}`]);
let code = 1;
try {
  const { targetId } = await browser.send("Target.createTarget",
                                          { url: "about:blank", newWindow: true, width, height });
  const page = await browser.session(targetId);
  await page.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  await page.send("Page.navigate", { url: `${server.url}index.html?${query}&size=${width}x${height}` });
  const started = Date.now();
  let state = null;
  while (Date.now() - started < 300000) {
    await new Promise((r) => setTimeout(r, 250));
    const { result } = await page.send("Runtime.evaluate", { returnByValue: true, expression:
      "typeof attnlabPage === 'object' ? {bench: attnlabPage.bench, problems: attnlabPage.problems} : null" });
    state = result.value;
    if (state && (state.bench || state.problems.length)) break;
  }
  if (state?.bench) {
    console.log(JSON.stringify(state.bench));
    code = 0;
  } else {
    console.error(`bench_frames: ${state?.problems?.length ? state.problems.join("; ") : "no result within 300 s"}`);
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
