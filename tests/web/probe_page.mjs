// One page of the site, for looking at by hand: node tests/web/probe_page.mjs SITE_DIR OUT.png [QUERY] [WxH]
// Prints what the console said and the page's state, and writes the screenshot once 3 frames are drawn (or 60 s).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CdpPipe } from "./cdp_pipe.mjs";
import { serveFolder } from "./static_server.mjs";

const [site, out, query = "", size = "1280x720"] = process.argv.slice(2);
const [width, height] = size.split("x").map(Number);
const server = await serveFolder(site);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "attnlab-probe-"));
const browser = await CdpPipe.launch(["--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader", "--no-first-run", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--disable-dev-shm-usage", `--user-data-dir=${profile}`]);
const { targetId } = await browser.send("Target.createTarget", { url: "about:blank", newWindow: true, width, height });
const page = await browser.session(targetId);
page.on("Runtime.consoleAPICalled", ({ type, args }) =>
  console.log(`console.${type}: ${args.map((a) => a.value ?? a.description).join(" ")}`));
page.on("Runtime.exceptionThrown", ({ exceptionDetails: d }) => console.log(`exception: ${d.exception?.description ?? d.text}`));
await page.send("Runtime.enable");
await page.send("Page.enable");
await page.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
await page.send("Page.navigate", { url: server.url + "index.html" + query });
const started = Date.now();
let state = null;
while (Date.now() - started < 60000) {
  const { result } = await page.send("Runtime.evaluate", { returnByValue: true,
    expression: "typeof attnlabPage === 'object' ? {frames: attnlabPage.framesDrawn, problems: attnlabPage.problems} : null" });
  state = result.value;
  if (state && (state.frames >= 3 || state.problems.length)) break;
  await new Promise((r) => setTimeout(r, 250));
}
console.log(`state after ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(state)}`);
const { data } = await page.send("Page.captureScreenshot", { format: "png" });
fs.writeFileSync(out, Buffer.from(data, "base64"));
await browser.close();
server.close();
process.exit(0);
