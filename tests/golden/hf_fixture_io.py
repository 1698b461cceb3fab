"""What every fixture script writes and checks with: safetensors files written and read by hand (numpy +
struct; the Python package is not in Debian 12), config.json, the relative difference the cross-checks use, and
the one way a script stops when a check fails."""

import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
REPO = os.path.dirname(os.path.dirname(HERE))

STORAGE = {"F32": np.dtype("<f4"), "BF16": np.dtype("<u2"), "I64": np.dtype("<i8")}


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, shape, dtype tag, chunks) in file order; chunks yields numpy arrays of the
    tag's storage type (BF16: the uint16 bit patterns) whose bytes, concatenated, are the tensor (so a
    124M-parameter file never sits in memory). Returns the size of the data section."""
    header, offset = {}, 0
    for name, shape, tag, _ in tensors:
        n_bytes = int(np.prod(shape, dtype=np.int64)) * STORAGE[tag].itemsize
        header[name] = {"dtype": tag, "shape": list(shape), "data_offsets": [offset, offset + n_bytes]}
        offset += n_bytes
    if metadata:
        header = {"__metadata__": metadata, **header}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((-(8 + len(text))) % 8)  # data starts at a multiple of 8
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name, shape, tag, chunks in tensors:
            written = 0
            for chunk in chunks:
                b = np.ascontiguousarray(chunk, dtype=STORAGE[tag]).tobytes()
                f.write(b)
                written += len(b)
            assert written == header[name]["data_offsets"][1] - header[name]["data_offsets"][0], name
    return offset


def read_safetensors(path):
    """-> (metadata, {name: numpy array of the tag's storage type} in file order). Checks what the writer
    guarantees: the tensors tile the data section in order, with nothing after them."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    assert (8 + n) % 8 == 0, path
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    out, expect = {}, 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        b, e = info["data_offsets"]
        assert b == expect, (path, name, info)
        expect = e
        out[name] = np.frombuffer(data[b:e], dtype=STORAGE[info["dtype"]]).reshape(info["shape"]).copy()
    assert expect == len(data), f"{path}: trailing bytes"
    return meta, out


def whole(array, tag="F32"):
    """One tensor given as a whole array: (shape, tag, [array])."""
    a = np.ascontiguousarray(np.asarray(array), dtype=STORAGE[tag])
    return a.shape, tag, [a]


def whole_f32(array):
    return whole(array, "F32")


def write_config(folder, config):
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


def rel_diff(got, want):
    """max |got - want| / max |want|, in float64."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-300))


def fail(message):
    """Stops the script: exit status 1, the message on stderr after the script's name."""
    sys.exit(f"{os.path.basename(sys.argv[0])}: FAILED: {message}")
