// A static file server for the browser test: one folder, on 127.0.0.1 at a port the system picks, with the MIME
// types the page needs (application/wasm lets the browser compile the .wasm while it streams in).
//
//   const server = await serveFolder("build-web/site");   // server.url is e.g. "http://127.0.0.1:40123/"
//   serveFolder(folder, { "Cross-Origin-Opener-Policy": "same-origin" })   // and these headers on every file
//   ...; await server.close();
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".data": "application/octet-stream",
  ".json": "application/json",
  ".png": "image/png",
  ".css": "text/css; charset=utf-8",
};

export function serveFolder(folder, headers = {}) {
  const root = path.resolve(folder);
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url, "http://x").pathname);
    const file = path.join(root, urlPath.endsWith("/") ? urlPath + "index.html" : urlPath);
    if (!file.startsWith(root + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    fs.stat(file, (error, stat) => {
      if (error || !stat.isFile()) {
        response.writeHead(404, { "Content-Type": "text/plain" }).end("not found: " + urlPath);
        return;
      }
      response.writeHead(200, {
        "Content-Type": MIME_TYPES[path.extname(file)] ?? "application/octet-stream",
        "Content-Length": stat.size,
        "Cache-Control": "no-store",
        ...headers,
      });
      if (request.method === "HEAD") response.end();
      else fs.createReadStream(file).pipe(response);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
      });
    });
  });
}
