# check --report DIR opened in a real browser: headless Chromium renders
# index.html and an anomaly page (with its SVG cycle) of a real failing
# history into PNG screenshots, which must be produced and non-trivial.
# Skipped (exit 77) when no chromium is installed.
browser=
for b in chromium chromium-browser google-chrome; do command -v "$b" >/dev/null && { browser=$b; break; }; done
[ -n "$browser" ] || { echo "no chromium installed (apt-get install -y chromium): browser rendering skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
h="$ROOT/examples/galera-lost-update.txt"
[ -f "$DATA/polysi-histories/violations/galera/galera.txt" ] && h="$DATA/polysi-histories/violations/galera/galera.txt"
"$ISOCHECK" check --level all --report "$tmp/r" "$h" > /dev/null; rc=$?
[ $rc -eq 1 ] || { echo "report: exit $rc"; exit 1; }
shot() {   # shot PAGE PNG
  HOME="$tmp" timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$tmp/profile" --screenshot="$2" --window-size=1200,900 "file://$1" > "$tmp/log" 2>&1
  [ -s "$2" ] || { echo "no screenshot of $1: $(tail -3 "$tmp/log")"; return 1; }
  # a PNG, 1200x900, and not blank: a blank page compresses to a few kB at most
  python3 - "$2" <<'PY' || return 1
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
w, h = struct.unpack('>II', d[16:24])
assert (w, h) == (1200, 900), (w, h)
assert len(d) > 15000, 'too small to hold the page: %d bytes' % len(d)
# decode the pixels: some must be the FAIL badge's red and some the page's dark text
chunks, i = b'', 8
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i+8]); 
    if t == b'IDAT': chunks += d[i+8:i+8+n]
    i += 12 + n
raw = zlib.decompress(chunks)
ct = d[25]; bpp = {2: 3, 6: 4}[ct]
stride = w * bpp
prev = bytearray(stride); rows = []; p = 0
for y in range(h):
    f = raw[p]; line = bytearray(raw[p+1:p+1+stride]); p += 1 + stride
    for x in range(stride):
        a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2*c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
red = dark = 0
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x+1], line[x+2]
        if r > 170 and g < 80 and b < 80: red += 1
        if r < 60 and g < 60 and b < 60: dark += 1
assert red > 50 and dark > 500, 'red %d dark %d: the page did not render' % (red, dark)
PY
}
shot "$tmp/r/index.html" "$tmp/index.png" || fail=1
shot "$tmp/r/anomaly-1.html" "$tmp/anomaly.png" || fail=1
[ -n "$REPORT_SHOTS" ] && mkdir -p "$REPORT_SHOTS" && cp "$tmp"/*.png "$REPORT_SHOTS"/
exit $fail
