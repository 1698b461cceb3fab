// The web page in headless Chromium: every picture drawn, no error said, the steps move the picture.
//
//   node tests/web/browser_test.mjs SITE_DIR OUT_DIR
//
// Serves SITE_DIR (index.html, attnlab.js, attnlab.wasm, attnlab.data) on 127.0.0.1 and opens the page in
// Chromium (WebGL2 on SwiftShader, over the DevTools pipe), each time in a fresh browser context (its own storage,
// so no settings carry over from one page to the next). Each page passes when the app has drawn 3 frames, the
// console said no error, the page shows no problem (attnlabPage.problems) and its screenshot, written to
// OUT_DIR/NAME.png, is the page's size with at least 1000 colours. The pages:
//   default-WxH-LANG      the first view, at 1024x768 and 1920x1080, English and Korean (?korean)
//   tour-NN-WxH-LANG      every chapter of assets/tour/tour.json (?tour=N), at both sizes, English and Korean
//   steps-before, -after  the first view before and after three presses of → (a step forward each), the canvas
//                         focused by a click: the pictures must differ by more than unstepped frames
//                         (steps-idle, before the click, and steps-before) differ from each other
// One line per picture, then a summary; exit code 0 only when every check passed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CdpPipe } from "./cdp_pipe.mjs";
import { listenToConsole } from "./page_console.mjs";
import { serveFolder } from "./static_server.mjs";
import { decodePng, distinctColours, differingPixels } from "./png_pixels.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PAGE_TIMEOUT_MS = 120_000;   // software WebGL on a 2-core machine: loading and the first frames are slow
const FRAMES_BEFORE_SHOT = 3;
const MIN_COLOURS = 1000;         // the loading notice alone (text on the background) has ~460; the views 2,700+
const MIN_STEP_CHANGE = 1000;      // pixels the steps must change beyond the unstepped frames' own differences
const SMALL = { width: 1024, height: 768 };
const LARGE = { width: 1920, height: 1080 };
const CHROMIUM_FLAGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
  "--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions",
  "--mute-audio", "--hide-scrollbars",
];

const sizeName = (size) => `${size.width}x${size.height}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A page of the site in a fresh browser context, at SIZE; collects what the console says.
async function openPage(browser, siteUrl, query, size) {
  const { browserContextId } = await browser.send("Target.createBrowserContext");
  const { targetId } = await browser.send("Target.createTarget",
                                          { url: "about:blank", browserContextId, ...size });
  const page = await browser.session(targetId);
  const { errors, console } = listenToConsole(page);  // each error fails the page; every line is logged
  await page.send("Runtime.enable");
  await page.send("Log.enable");
  await page.send("Page.enable");
  await page.send("Emulation.setDeviceMetricsOverride", { ...size, deviceScaleFactor: 1, mobile: false });
  await page.send("Emulation.setFocusEmulationEnabled", { enabled: true });
  await page.send("Page.navigate", { url: siteUrl + "index.html" + query });
  return {
    page, errors, console,
    close: async () => {
      page.detach();
      await browser.send("Target.disposeBrowserContext", { browserContextId });
    },
  };
}

// What the page says of itself: { frames, problems }.
async function pageState(page) {
  const { result } = await page.send("Runtime.evaluate", {
    expression: "typeof attnlabPage === 'object' ? JSON.stringify({ frames: attnlabPage.framesDrawn, " +
                "problems: attnlabPage.problems }) : null",
    returnByValue: true,
  });
  return result.value ? JSON.parse(result.value) : { frames: 0, problems: [] };
}

// Waits until the app has drawn FRAMES frames; stops early on an error or a problem shown. Returns the state.
async function waitForFrames(opened, frames, timeoutMs = PAGE_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await pageState(opened.page);
    if (state.frames >= frames || state.problems.length > 0 || opened.errors.length > 0) return state;
    if (Date.now() > deadline) {
      opened.errors.push(`timed out after ${timeoutMs / 1000} s with ${state.frames} of ${frames} frames drawn`);
      return state;
    }
    await sleep(200);
  }
}

async function screenshot(page) {
  const { data } = await page.send("Page.captureScreenshot", { format: "png" });
  return Buffer.from(data, "base64");
}

// Writes the picture and checks it: the page's size, not one flat colour. Returns { failures, image, note }.
function checkPicture(outDir, name, png, size) {
  fs.writeFileSync(path.join(outDir, name + ".png"), png);
  const image = decodePng(png);
  const colours = distinctColours(image);
  const failures = [];
  if (image.width !== size.width || image.height !== size.height)
    failures.push(`picture is ${image.width}x${image.height}, not ${sizeName(size)}`);
  if (colours < MIN_COLOURS) failures.push(`only ${colours} colours (an empty canvas?)`);
  return { failures, image, note: `${colours} colours` };
}

// One line per picture: PASS or FAIL, its name, what was measured, and why it failed.
function report(results, name, failures, note, started) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, passed: failures.length === 0 });
  const status = failures.length === 0 ? "PASS" : "FAIL";
  process.stdout.write(`${status} ${name}.png  ${note}  ${seconds} s\n`);
  for (const f of failures) process.stdout.write(`     ${f}\n`);
}

// One page, one picture: opens ?QUERY at SIZE, waits for the frames, checks errors, problems and the picture.
async function checkPage(ctx, name, query, size) {
  const started = Date.now();
  const opened = await openPage(ctx.browser, ctx.siteUrl, query, size);
  let failures = [], note = "";
  try {
    const state = await waitForFrames(opened, FRAMES_BEFORE_SHOT);
    const picture = checkPicture(ctx.outDir, name, await screenshot(opened.page), size);
    const after = await pageState(opened.page);
    failures = [...opened.errors, ...after.problems.map((p) => `page problem: ${p}`), ...picture.failures];
    note = `${picture.note}, ${state.frames} frames`;
  } catch (error) {
    failures = [...opened.errors, String(error.message ?? error)];
  } finally {
    fs.writeFileSync(path.join(ctx.outDir, name + ".log"), opened.console.join("\n") + "\n");
    await opened.close();
  }
  report(ctx.results, name, failures, note, started);
}

// A key held down for one frame, then up for one: Dear ImGui 1.86 reads the keys' state once a frame, so a
// press and release between two frames would go unseen, and a key held longer than its repeat delay (0.275 s,
// two slow frames here) would repeat.
async function pressKey(opened, key, keyCode) {
  const event = { key, code: key, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  let { frames } = await pageState(opened.page);
  await opened.page.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...event });
  ({ frames } = await waitForFrames(opened, frames + 1));
  await opened.page.send("Input.dispatchKeyEvent", { type: "keyUp", ...event });
  await waitForFrames(opened, frames + 1);
}

// A left click at (X, Y), which focuses the canvas (index.html does on mousedown) so the keys reach the app.
async function clickToFocus(opened, x, y) {
  for (const type of ["mouseMoved", "mousePressed", "mouseReleased"])
    await opened.page.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
  const { result } = await opened.page.send("Runtime.evaluate", {
    expression: "document.activeElement === Module.canvas", returnByValue: true });
  if (!result.value) opened.errors.push("the canvas did not take the focus when clicked");
}

// The first view, stepped forward three times with →: the picture must change by more than it does unstepped.
async function checkSteps(ctx) {
  const started = Date.now();
  const opened = await openPage(ctx.browser, ctx.siteUrl, "", SMALL);
  let failures = [], note = "";
  try {
    let state = await waitForFrames(opened, FRAMES_BEFORE_SHOT);
    const idle = checkPicture(ctx.outDir, "steps-idle", await screenshot(opened.page), SMALL);
    await clickToFocus(opened, SMALL.width - 8, 10);  // the menu bar's empty right end: no widget there
    state = await waitForFrames(opened, (await pageState(opened.page)).frames + 3);
    const before = checkPicture(ctx.outDir, "steps-before", await screenshot(opened.page), SMALL);
    for (let i = 0; i < 3; i++) await pressKey(opened, "ArrowRight", 39);
    state = await pageState(opened.page);
    await waitForFrames(opened, state.frames + 3);
    const after = checkPicture(ctx.outDir, "steps-after", await screenshot(opened.page), SMALL);
    const unstepped = differingPixels(idle.image, before.image);
    const stepped = differingPixels(before.image, after.image);
    const problems = (await pageState(opened.page)).problems;
    failures = [...opened.errors, ...problems.map((p) => `page problem: ${p}`), ...idle.failures,
                ...before.failures, ...after.failures];
    if (stepped < unstepped + MIN_STEP_CHANGE)
      failures.push(`the steps changed ${stepped} pixels; unstepped frames differ by ${unstepped}`);
    note = `${stepped} pixels changed by 3 steps (${unstepped} between unstepped frames)`;
  } catch (error) {
    failures = [...opened.errors, String(error.message ?? error)];
  } finally {
    fs.writeFileSync(path.join(ctx.outDir, "steps.log"), opened.console.join("\n") + "\n");
    await opened.close();
  }
  report(ctx.results, "steps-after", failures, note, started);
}

async function main() {
  const [siteDir, outDir] = process.argv.slice(2);
  if (!siteDir || !outDir) {
    process.stderr.write("usage: node tests/web/browser_test.mjs SITE_DIR OUT_DIR\n");
    return 2;
  }
  if (!fs.existsSync(path.join(siteDir, "index.html"))) {
    process.stderr.write(`no index.html in ${siteDir}: build the page first (scripts/web/build.sh)\n`);
    return 2;
  }
  const started = Date.now();
  fs.mkdirSync(outDir, { recursive: true });
  const chapters = JSON.parse(fs.readFileSync(path.join(REPO, "assets/tour/tour.json"), "utf8")).chapters.length;
  const server = await serveFolder(siteDir);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "attnlab-chromium-"));
  const browser = await CdpPipe.launch([...CHROMIUM_FLAGS, `--user-data-dir=${profile}`]);
  const ctx = { browser, siteUrl: server.url, outDir, results: [] };
  try {
    for (const size of [SMALL, LARGE]) {
      await checkPage(ctx, `default-${sizeName(size)}-en`, "", size);
      await checkPage(ctx, `default-${sizeName(size)}-ko`, "?korean", size);
    }
    for (let n = 1; n <= chapters; n++) {
      const nn = String(n).padStart(2, "0");
      for (const size of [SMALL, LARGE]) {
        await checkPage(ctx, `tour-${nn}-${sizeName(size)}-en`, `?tour=${n}`, size);
        await checkPage(ctx, `tour-${nn}-${sizeName(size)}-ko`, `?tour=${n}&korean`, size);
      }
    }
    await checkSteps(ctx);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  const failed = ctx.results.filter((r) => !r.passed);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`${ctx.results.length - failed.length} of ${ctx.results.length} pages passed in ${seconds} s` +
                       (failed.length ? `; failed: ${failed.map((r) => r.name).join(", ")}` : "") +
                       `; pictures and console logs in ${outDir}\n`);
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
