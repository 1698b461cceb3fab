// Just enough PNG decoding for the browser test: the 8-bit RGB and RGBA PNGs Chromium's screenshots are, to
// pixels, to count their colours and compare two pictures. Node's zlib inflates the IDAT chunks; the filters
// (None, Sub, Up, Average, Paeth) are undone row by row.
//
//   decodePng(buffer) -> { width, height, channels (3|4), pixels: Uint8Array of width*height*channels }
import zlib from "node:zlib";

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

export function decodePng(buffer) {
  if (!buffer.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let width = 0, height = 0, channels = 0;
  const idat = [];
  for (let at = 8; at < buffer.length;) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString("latin1", at + 4, at + 8);
    const data = buffer.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colourType, , , interlace] = data.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colourType];
      if (bitDepth !== 8 || !channels || interlace !== 0)
        throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`);
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    at += 12 + length;  // length, type, data, CRC
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? row[x - channels] : 0;       // left
      const b = up[x];                                       // above
      const c = x >= channels ? up[x - channels] : 0;        // above left
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) predicted = paeth(a, b, c);
      else if (filter !== 0) throw new Error(`bad PNG filter ${filter} in row ${y}`);
      row[x] = (src[x] + predicted) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// How many distinct RGB colours the picture has.
export function distinctColours(image) {
  const seen = new Set();
  const { pixels, channels } = image;
  for (let i = 0; i < pixels.length; i += channels)
    seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

// How many pixels differ in RGB between two pictures of the same size.
export function differingPixels(first, second) {
  if (first.width !== second.width || first.height !== second.height)
    throw new Error(`sizes differ: ${first.width}x${first.height} and ${second.width}x${second.height}`);
  let count = 0;
  const c1 = first.channels, c2 = second.channels;
  for (let p = 0, n = first.width * first.height; p < n; p++) {
    const i = p * c1, j = p * c2;
    if (first.pixels[i] !== second.pixels[j] || first.pixels[i + 1] !== second.pixels[j + 1] ||
        first.pixels[i + 2] !== second.pixels[j + 2]) count++;
  }
  return count;
}
