// A Chrome DevTools Protocol client over --remote-debugging-pipe: Chromium reads JSON messages, each ended by a
// '\0', from its fd 3 and writes its answers and events the same way to its fd 4. No npm packages.
//
//   const browser = await CdpPipe.launch(["--headless=new", ...]);
//   const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
//   const page = await browser.session(targetId);          // a page's session: page.send, page.on
//   await page.send("Page.navigate", { url });
//   await browser.close();
import { spawn } from "node:child_process";

export class CdpPipe {
  // Starts Chromium with the pipe: stdio [stdin ignored, stdout, stderr, fd 3 (we write), fd 4 (we read)].
  static async launch(flags, executable = "/usr/bin/chromium") {
    const child = spawn(executable, [...flags, "--remote-debugging-pipe"],
                        { stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"] });
    const pipe = new CdpPipe(child);
    await pipe.send("Browser.getVersion");  // answers once the browser is up
    return pipe;
  }

  constructor(child) {
    this.child = child;
    this.nextId = 1;
    this.pending = new Map();   // id -> { resolve, reject, method }
    this.listeners = [];        // { sessionId, method, callback }
    this.stderr = "";           // Chromium's own log, for a failure's report
    this.exited = false;
    child.stdout.on("data", () => {});
    child.stderr.on("data", (chunk) => { this.stderr = (this.stderr + chunk).slice(-20000); });
    let buffered = Buffer.alloc(0);
    child.stdio[4].on("data", (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let end = buffered.indexOf(0); end >= 0; end = buffered.indexOf(0)) {
        this.receive(JSON.parse(buffered.subarray(0, end).toString("utf8")));
        buffered = buffered.subarray(end + 1);
      }
    });
    child.on("exit", (code, signal) => {
      this.exited = true;
      for (const { reject, method } of this.pending.values())
        reject(new Error(`chromium exited (${code ?? signal}) before answering ${method}\n${this.stderr}`));
      this.pending.clear();
    });
  }

  receive(message) {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result);
      return;
    }
    for (const l of this.listeners)
      if (l.method === message.method && l.sessionId === message.sessionId) l.callback(message.params);
  }

  // One command; resolves with its result, rejects with the protocol's error.
  send(method, params = {}, sessionId = undefined) {
    if (this.exited) return Promise.reject(new Error(`chromium has exited; cannot send ${method}`));
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    this.child.stdio[3].write(JSON.stringify(message) + "\0");
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
  }

  on(method, callback, sessionId = undefined) {
    this.listeners.push({ sessionId, method, callback });
  }

  // A page's session (flat mode): the same send and on, bound to the target.
  async session(targetId) {
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    return {
      sessionId,
      send: (method, params = {}) => this.send(method, params, sessionId),
      on: (method, callback) => this.on(method, callback, sessionId),
      detach: () => { this.listeners = this.listeners.filter((l) => l.sessionId !== sessionId); },
    };
  }

  async close() {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.send("Browser.close").catch(() => {});
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
}
