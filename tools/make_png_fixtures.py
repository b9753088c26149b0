#!/usr/bin/env python3
"""Writes the PNG fixtures for FrameSimulation's imaging tests.

Usage: python3 tools/make_png_fixtures.py [output directory]
(default: Tests/FrameSimulationTests/Fixtures/PNG)

Only the standard library: zlib compresses, random.Random(seed) makes the content, so a run
reproduces the same pixels (and, with the same zlib, the same bytes). Images look like what a
feed shows (gradients, soft shapes, texture and a little noise) so they compress like photos
rather than flat colour.

Writes, for every valid image, its expected decoded pixels into expected.json: width, height
and the CRC-32 of the RGBA8 premultiplied pixels (computed here from the generated samples, not
by decoding), plus the CRC-32 and size of the inflated IDAT stream. For three fixtures it also
writes that inflated stream as <name>.raw so inflate tests compare against zlib byte for byte.
Invalid images (truncated, corrupt, hostile, unsupported) are named after their defect.
"""

import json
import math
import os
import random
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
GRAY, RGB, PALETTE, GRAY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}


# ---------------------------------------------------------------- PNG writing

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def ihdr(width, height, bit_depth, color_type, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, previous, bpp):
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = previous[i]
        c = previous[i - bpp] if i >= bpp else 0
        predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
        out[i] = (x - predictor) & 0xFF
    return out


def filtered_scanlines(rows, bpp, filters):
    """Filters each row; `filters` is 'cycle' (row r uses type r % 5, so all five appear),
    'adaptive' (the type with the smallest sum of absolute values, as libpng chooses) or a
    fixed type number."""
    previous = bytearray(len(rows[0])) if rows else bytearray()
    data = bytearray()
    used = set()
    for r, row in enumerate(rows):
        if filters == "cycle":
            kind = r % 5
            line = filter_row(kind, row, previous, bpp)
        elif filters == "adaptive":
            candidates = [filter_row(k, row, previous, bpp) for k in range(5)]
            costs = [sum(v if v < 128 else 256 - v for v in c) for c in candidates]
            kind = costs.index(min(costs))
            line = candidates[kind]
        else:
            kind = filters
            line = filter_row(kind, row, previous, bpp)
        used.add(kind)
        data.append(kind)
        data += line
        previous = row
    return bytes(data), used


def png_bytes(width, height, color_type, rows, filters="adaptive", compress=None, extra_chunks=(),
              idat_chunk_size=None, bit_depth=8):
    bpp = max(1, CHANNELS[color_type] * bit_depth // 8)
    raw, used = filtered_scanlines(rows, bpp, filters)
    stream = compress(raw) if compress else zlib.compress(raw, 9)
    out = SIGNATURE + ihdr(width, height, bit_depth, color_type)
    for kind, data in extra_chunks:
        out += chunk(kind, data)
    size = idat_chunk_size or len(stream) or 1
    for start in range(0, max(len(stream), 1), size):
        out += chunk(b"IDAT", stream[start:start + size])
    return out + chunk(b"IEND", b""), raw, used


# ---------------------------------------------------------------- content

def photo(width, height, seed, noise=3):
    """RGB samples: a sky-to-ground gradient, soft discs and boxes, texture and noise."""
    rng = random.Random(seed)
    shapes = []
    for _ in range(12):
        shapes.append((rng.random() < 0.6, rng.uniform(0, width), rng.uniform(0, height),
                       rng.uniform(0.05, 0.3) * min(width, height),
                       (rng.randrange(256), rng.randrange(256), rng.randrange(256))))
    rows = []
    for y in range(height):
        v = y / max(height - 1, 1)
        row = bytearray(width * 3)
        for x in range(width):
            u = x / max(width - 1, 1)
            texture = 10 * math.sin(x * 0.07 + y * 0.03) * math.cos(y * 0.05)
            r = 70 + 120 * (1 - v) + 30 * u + texture
            g = 110 + 90 * (1 - v) - 20 * u + texture
            b = 180 - 100 * v + 20 * u
            for is_disc, cx, cy, size, colour in shapes:
                if is_disc:
                    d = math.hypot(x - cx, y - cy) - size
                else:
                    d = max(abs(x - cx), abs(y - cy) * 1.5) - size
                if d < 4:
                    t = 0.8 if d < 0 else 0.8 * (1 - d / 4)
                    r, g, b = (r + (colour[0] - r) * t, g + (colour[1] - g) * t, b + (colour[2] - b) * t)
            i = x * 3
            for k, value in enumerate((r, g, b)):
                row[i + k] = max(0, min(255, int(value + rng.randint(-noise, noise))))
        rows.append(row)
    return rows


def to_gray(rgb_rows):
    return [bytearray((r * 77 + g * 150 + b * 29) >> 8 for r, g, b in zip(row[0::3], row[1::3], row[2::3]))
            for row in rgb_rows]


def circular_alpha(width, height):
    """An avatar's alpha: opaque disc, soft 3-pixel edge, transparent corners."""
    radius = min(width, height) / 2
    rows = []
    for y in range(height):
        rows.append([max(0, min(255, int(255 * (radius - math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2)) / 3)))
                     for x in range(width)])
    return rows


def interleave(colour_rows, alpha_rows, channels):
    out = []
    for colour, alpha in zip(colour_rows, alpha_rows):
        row = bytearray()
        for x, a in enumerate(alpha):
            row += colour[x * channels:(x + 1) * channels]
            row.append(a)
        out.append(row)
    return out


# ---------------------------------------------------------------- expected pixels

def premultiply(c, a):
    return (c * a + 127) // 255


def rgba_premultiplied(color_type, rows, palette=None, alphas=None, key=None):
    out = bytearray()
    for row in rows:
        if color_type == GRAY:
            for g in row:
                a = 0 if key == (g,) else 255
                out += bytes((premultiply(g, a),) * 3 + (a,))
        elif color_type == GRAY_ALPHA:
            for g, a in zip(row[0::2], row[1::2]):
                out += bytes((premultiply(g, a),) * 3 + (a,))
        elif color_type == RGB:
            for pixel in zip(row[0::3], row[1::3], row[2::3]):
                a = 0 if key == pixel else 255
                out += bytes(premultiply(c, a) for c in pixel) + bytes((a,))
        elif color_type == RGBA:
            for r, g, b, a in zip(row[0::4], row[1::4], row[2::4], row[3::4]):
                out += bytes((premultiply(r, a), premultiply(g, a), premultiply(b, a), a))
        else:
            for index in row:
                a = alphas[index] if index < len(alphas) else 255
                out += bytes(premultiply(c, a) for c in palette[index]) + bytes((a,))
    return bytes(out)


# ---------------------------------------------------------------- deliberately broken streams

class BitWriter:
    def __init__(self):
        self.bytes, self.bit, self.count = bytearray(), 0, 0

    def write(self, value, bits):
        for i in range(bits):
            self.bit |= ((value >> i) & 1) << self.count
            self.count += 1
            if self.count == 8:
                self.bytes.append(self.bit)
                self.bit, self.count = 0, 0

    def finish(self):
        if self.count:
            self.bytes.append(self.bit)
        return bytes(self.bytes)


def oversubscribed_dynamic_block():
    """A zlib stream whose dynamic block gives all 19 code-length codes length 1."""
    bits = BitWriter()
    bits.write(1, 1)       # BFINAL
    bits.write(2, 2)       # BTYPE = dynamic
    bits.write(0, 5)       # HLIT: 257 literal/length codes
    bits.write(0, 5)       # HDIST: 1 distance code
    bits.write(15, 4)      # HCLEN: 19 code-length codes
    for _ in range(19):
        bits.write(1, 3)
    return b"\x78\x9c" + bits.finish() + struct.pack(">I", 1)


def adam7_scanlines(rows, width, height, bpp):
    """The seven interlace passes, each filtered with type 0 (a real Adam7 encoding)."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    data = bytearray()
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            line = bytearray()
            for x in range(x0, width, dx):
                line += rows[y][x * bpp:(x + 1) * bpp]
            if line:
                data += b"\x00" + line
    return bytes(data)


# ---------------------------------------------------------------- the fixtures

class FixtureWriter:
    """Writes fixtures into one folder; keeps each valid image's expected decoding and the filters used."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.expected = {}
        self.filters_seen = set()

    def write(self, name, data):
        with open(os.path.join(self.out_dir, name), "wb") as f:
            f.write(data)

    def valid(self, name, width, height, color_type, rows, rgba, raw_dump=False, **options):
        data, raw, used = png_bytes(width, height, color_type, rows, **options)
        self.filters_seen.update(used)
        self.write(name + ".png", data)
        assert len(rgba) == width * height * 4
        self.expected[name] = {
            "width": width, "height": height, "rgbaCRC32": zlib.crc32(rgba),
            "inflatedSize": len(raw), "inflatedCRC32": zlib.crc32(raw),
            "filters": sorted(used),
        }
        if raw_dump:
            self.write(name + ".raw", raw)
        return data


def write_valid(w):
    """Every image the decoder must read, each with its expected pixels in expected.json."""
    # Avatars: 96×96 gray and RGBA with a soft circular alpha.
    avatar = photo(96, 96, seed=1)
    gray = to_gray(avatar)
    w.valid("avatar-gray-96x96", 96, 96, GRAY, gray, rgba_premultiplied(GRAY, gray), filters="cycle")
    rgba = interleave(avatar, circular_alpha(96, 96), 3)
    w.valid("avatar-rgba-96x96", 96, 96, RGBA, rgba, rgba_premultiplied(RGBA, rgba), raw_dump=True, filters="cycle")

    # Gray + alpha.
    small = to_gray(photo(64, 64, seed=2))
    gray_alpha = interleave(small, circular_alpha(64, 64), 1)
    w.valid("gray-alpha-64x64", 64, 64, GRAY_ALPHA, gray_alpha, rgba_premultiplied(GRAY_ALPHA, gray_alpha), filters="cycle")

    # Palette with transparency: the photo quantized to a 6×6×6 cube plus 8 translucent entries.
    palette = [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    palette += [(255, 255, 255)] * 8
    alphas = [255] * 216 + [0, 32, 64, 96, 128, 160, 192, 224]
    source = photo(300, 300, seed=3, noise=0)
    indices = []
    for y, row in enumerate(source):
        line = bytearray()
        for x in range(300):
            r, g, b = row[x * 3:x * 3 + 3]
            corner = min(x, y, 299 - x, 299 - y)
            line.append(216 + corner if corner < 8 else (r + 25) // 51 * 36 + (g + 25) // 51 * 6 + (b + 25) // 51)
        indices.append(line)
    palette_chunks = [(b"PLTE", b"".join(bytes(c) for c in palette)), (b"tRNS", bytes(alphas))]
    w.valid("palette-300x300", 300, 300, PALETTE, indices, rgba_premultiplied(PALETTE, indices, palette, alphas),
          raw_dump=True, filters="cycle", extra_chunks=palette_chunks)

    # Feed photos, filtered the way libpng chooses.
    for width, height, seed in ((640, 480, 4), (1200, 900, 5)):
        rows = photo(width, height, seed)
        w.valid(f"photo-{width}x{height}", width, height, RGB, rows, rgba_premultiplied(RGB, rows))

    # Block types: level 0 writes stored blocks only; Z_FIXED writes fixed-Huffman blocks only.
    rows = photo(32, 32, seed=6)
    w.valid("stored-blocks-32x32", 32, 32, RGB, rows, rgba_premultiplied(RGB, rows), raw_dump=True,
          filters="cycle", compress=lambda raw: zlib.compress(raw, 0))
    rows = photo(48, 48, seed=7)

    def fixed(raw):
        encoder = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED)
        return encoder.compress(raw) + encoder.flush()
    w.valid("fixed-huffman-48x48", 48, 48, RGB, rows, rgba_premultiplied(RGB, rows), filters="cycle", compress=fixed)

    # A single pixel.
    pixel = [bytearray((200, 100, 50, 128))]
    w.valid("one-pixel-1x1", 1, 1, RGBA, pixel, rgba_premultiplied(RGBA, pixel))

    # IDAT split into 100-byte chunks, with ancillary chunks the decoder must skip.
    rows = photo(64, 64, seed=8)
    ancillary = [(b"gAMA", struct.pack(">I", 45455)), (b"tEXt", b"Comment\x00framescope fixture")]
    w.valid("split-idat-64x64", 64, 64, RGB, rows, rgba_premultiplied(RGB, rows), idat_chunk_size=100, extra_chunks=ancillary)

    # RGB with a tRNS colour key: every pure-green pixel becomes transparent.
    rows = photo(32, 32, seed=9)
    for y in range(8, 24):
        rows[y][8 * 3:24 * 3] = bytes((0, 255, 0)) * 16
    w.valid("rgb-color-key-32x32", 32, 32, RGB, rows, rgba_premultiplied(RGB, rows, key=(0, 255, 0)),
          extra_chunks=[(b"tRNS", struct.pack(">HHH", 0, 255, 0))])


def write_invalid(write):
    """Invalid and unsupported images, named after their defect."""
    rows = photo(32, 32, seed=10)
    good, raw, _ = png_bytes(32, 32, RGB, rows)
    idat_at = good.index(b"IDAT") - 4
    idat_length = struct.unpack(">I", good[idat_at:idat_at + 4])[0]

    # The file stops in the middle of the IDAT chunk.
    write("truncated-in-idat.png", good[:idat_at + 8 + idat_length // 2])
    # The IDAT chunk is whole (good CRC) but the zlib stream inside it stops half way.
    stream = zlib.compress(raw, 9)
    write("truncated-zlib-stream.png",
          SIGNATURE + ihdr(32, 32, 8, RGB) + chunk(b"IDAT", stream[:len(stream) // 2]) + chunk(b"IEND", b""))
    # One IDAT byte flipped without fixing the CRC.
    corrupt = bytearray(good)
    corrupt[idat_at + 8 + 10] ^= 0x40
    write("corrupt-crc.png", bytes(corrupt))
    # The zlib stream's Adler-32 is wrong (the chunk CRC is right).
    write("adler-mismatch.png", SIGNATURE + ihdr(32, 32, 8, RGB)
          + chunk(b"IDAT", stream[:-4] + struct.pack(">I", (zlib.adler32(raw) + 1) & 0xFFFFFFFF)) + chunk(b"IEND", b""))
    # Declares 100,000 × 100,000 RGBA (40 GB decoded) with a tiny stream.
    write("huge-dimensions.png", SIGNATURE + ihdr(100000, 100000, 8, RGBA)
          + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))
    # Zero width.
    write("zero-width.png", SIGNATURE + ihdr(0, 32, 8, RGB) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    # 16-bit RGB, correctly encoded.
    wide = [bytearray(b for v in row for b in (v, v)) for row in rows]
    write("sixteen-bit-rgb.png", png_bytes(32, 32, RGB, wide, bit_depth=16)[0])
    # 1-bit gray, correctly encoded.
    bits = [bytearray(0xAA if y % 2 else 0x55 for _ in range(4)) for y in range(32)]
    write("one-bit-gray.png", png_bytes(32, 32, GRAY, bits, bit_depth=1)[0])
    # Adam7 interlaced RGB, correctly encoded.
    write("interlaced-adam7.png", SIGNATURE + ihdr(32, 32, 8, RGB, interlace=1)
          + chunk(b"IDAT", zlib.compress(adam7_scanlines(rows, 32, 32, 3), 9)) + chunk(b"IEND", b""))
    # A dynamic block whose code-length code oversubscribes the code space.
    write("bad-huffman-table.png", SIGNATURE + ihdr(32, 32, 8, RGB)
          + chunk(b"IDAT", oversubscribed_dynamic_block()) + chunk(b"IEND", b""))
    # A scanline with filter type 5.
    bad_filter = bytearray(raw)
    bad_filter[(32 * 3 + 1) * 7] = 5
    write("bad-filter-type.png", SIGNATURE + ihdr(32, 32, 8, RGB)
          + chunk(b"IDAT", zlib.compress(bytes(bad_filter))) + chunk(b"IEND", b""))
    # The image data holds fewer bytes than the header promises (the stream itself is complete).
    write("too-little-image-data.png", SIGNATURE + ihdr(32, 32, 8, RGB)
          + chunk(b"IDAT", zlib.compress(raw[:len(raw) // 2])) + chunk(b"IEND", b""))
    # A palette image whose pixels use index 200 of a 4-entry palette.
    indices = [bytearray([0, 1, 2, 3] * 8) for _ in range(31)] + [bytearray([200] * 32)]
    write("palette-index-out-of-range.png", png_bytes(32, 32, PALETTE, indices,
          extra_chunks=[(b"PLTE", bytes(range(12)))])[0])
    # A palette image with no PLTE chunk.
    write("palette-without-plte.png", png_bytes(32, 32, PALETTE, indices[:1] * 32)[0])
    # The first chunk is IDAT, not IHDR.
    write("idat-before-ihdr.png", SIGNATURE + chunk(b"IDAT", stream) + good[8:])
    # Not a PNG at all.
    write("not-a-png.png", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Tests", "FrameSimulationTests", "Fixtures", "PNG")
    os.makedirs(out_dir, exist_ok=True)
    w = FixtureWriter(out_dir)
    write_valid(w)
    assert w.filters_seen == {0, 1, 2, 3, 4}, w.filters_seen
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump(w.expected, f, indent=2, sort_keys=True)
        f.write("\n")
    write_invalid(w.write)


if __name__ == "__main__":
    main()
