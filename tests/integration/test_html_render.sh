#!/usr/bin/env bash
# Opt-in browser check: the report.html of a tiny quickstart-like run,
# rendered by headless chromium (Debian's package), logs no console error
# and its screenshot is not blank (many distinct pixel values, ink on a
# fair share of it).  Skips (77) when /usr/bin/chromium is not installed.
CHROMIUM=${SC_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
	echo "SKIP: $CHROMIUM not installed (Debian: apt-get install chromium)"
	exit 77
fi
if ! command -v python3 >/dev/null; then
	echo "SKIP: python3 not installed (the screenshot is decoded with it)"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target" "$T/home"
cat >"$T/q.yaml" <<YAML
targets:
  - path: $T/target
defaults:
  size: 8MiB
phases:
  - name: seqwrite
    rw: write
    bs: 1MiB
    iodepth: 4
  - name: randread
    rw: randread
    bs: 4KiB
    iodepth: 8
    runtime: 2s
  - name: randrw
    rw: randrw
    rwmixread: 70
    bs: 4KiB
    iodepth: 8
    runtime: 2s
YAML
sc_mpirun 2 "$T/q.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run"; }
page="$T/out/report.html"
[ -s "$page" ] || fail "the run left no report.html"

# chromium wants a writable home and profile; it may run long on a busy machine
rc=0
HOME="$T/home" timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$T/profile" --screenshot="$T/shot.png" --window-size=1200,3000 \
	--enable-logging=stderr --v=0 "file://$page" >"$T/chromium.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/chromium.log"; fail "chromium exit $rc"; }
[ -s "$T/shot.png" ] || { cat "$T/chromium.log"; fail "no screenshot"; }
# the page has no script: any console message is an error (a resource it
# tried to fetch, a parse error)
if grep -E ':CONSOLE[(:]' "$T/chromium.log"; then
	fail "console messages while rendering report.html"
fi

python3 - "$T/shot.png" <<'PY' || fail "the screenshot is blank"
import struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype = hdr[:4]
assert depth == 8 and ctype in (2, 6), "unexpected PNG type %d/%d" % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, ink = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):  # every other pixel is enough
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b"\xff\xff\xff"
    prev = line
share = ink / (w * h / 2)
print("screenshot %dx%d: %d distinct colours, %.1f%% not white" % (w, h, len(colours), 100 * share))
sys.exit(0 if len(colours) >= 16 and share >= 0.01 else 1)
PY
echo PASS
