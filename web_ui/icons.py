"""The home-screen icons, drawn from web_ui/static/favicon.svg by resvg (never by hand).

    make icons              # or: python -m web_ui.icons

The PNGs are committed under web_ui/static/icons/ (the box never renders them: resvg is a
development dependency, in requirements-dev.txt) and tests/test_icons.py checks that they are
what this module makes from the SVG today, so a changed drawing can't leave stale icons behind.

    icon-192.png           192  Android's launcher and Chromium's install prompt
    icon-512.png           512  Android's splash screen
    icon-maskable-512.png  512  Android's adaptive icons: the platform cuts it to a circle,
                                a squircle...; the drawing sits inside the safe circle on a
                                full-bleed background
    apple-touch-icon.png   180  iPad and iPhone's home screen (iOS rounds the corners itself;
                                a transparent corner would turn black there, so none is left)
"""

import sys
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
SOURCE = STATIC / "favicon.svg"
FOLDER = STATIC / "icons"
# the panel's --bg (web_ui/static/css/panel.css): the drawing's own tile, the full-bleed icons'
# background and the app's (web_ui/app_shell.py's manifest)
BACKGROUND = "#15161a"
SAFE_ZONE = 0.8             # the maskable icon's drawing fills the middle 80 % (the safe circle's diameter)

# name -> (pixels, full-bleed background, the drawing's share of the width, the manifest's
# purpose: None for Apple's, which the pages link instead)
ICONS = {
    "icon-192.png": (192, False, 1.0, "any"),
    "icon-512.png": (512, False, 1.0, "any"),
    "icon-maskable-512.png": (512, True, SAFE_ZONE, "maskable"),
    "apple-touch-icon.png": (180, True, 1.0, None),
}
TOUCH_ICON = "apple-touch-icon.png"
SVG = "http://www.w3.org/2000/svg"


def framed(svg_text, share):
    """The drawing scaled to ``share`` of the width, centred on a square of the background colour."""
    import xml.etree.ElementTree as ET  # here: the panel imports this module for its names alone
    ET.register_namespace("", SVG)
    inner = ET.fromstring(svg_text)
    x, y, w, h = (float(v) for v in inner.get("viewBox", "0 0 32 32").split())
    side = max(w, h) / share
    outer = ET.Element("{%s}svg" % SVG, viewBox="0 0 %g %g" % (side, side))
    ET.SubElement(outer, "{%s}rect" % SVG, width="%g" % side, height="%g" % side, fill=BACKGROUND)
    inner.attrib.update({"x": "%g" % ((side - w) / 2), "y": "%g" % ((side - h) / 2),
                         "width": "%g" % w, "height": "%g" % h, "viewBox": "%g %g %g %g" % (x, y, w, h)})
    outer.append(inner)
    return ET.tostring(outer, encoding="unicode")


def render(svg_text, size, bleed, share, purpose=None):
    """PNG bytes of the drawing at ``size`` pixels square, packed."""
    return packed(drawn(svg_text, size, bleed, share, purpose))


def drawn(svg_text, size, bleed, share, purpose=None):
    """The PNG as resvg writes it: 32-bit pixels."""
    # development only (requirements-dev.txt): the box serves the committed PNGs
    import resvg_py

    if bleed:
        svg_text = framed(svg_text, share)
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text, width=size, height=size))


def packed(png):
    """The same pixels with a palette, when they have at most 256 colours (alpha included): the
    drawing's flat colours and their edges come to a few dozen, and Apple's icon, which every
    page links, weighed 5.4 KB as 32-bit pixels and 2.2 KB so. Checked pixel for pixel; else (or
    if it isn't smaller) ``png`` as it came."""
    import io

    from PIL import Image  # here: the panel imports this module for its names alone

    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
    raw = rgba.tobytes()
    pixels = [raw[i:i + 4] for i in range(0, len(raw), 4)]
    colours = sorted(set(pixels))
    if len(colours) > 256:
        return png
    index = {colour: i for i, colour in enumerate(colours)}
    indexed = Image.frombytes("P", rgba.size, bytes(index[pixel] for pixel in pixels))
    indexed.putpalette(b"".join(colours), rawmode="RGBA")
    out = io.BytesIO()
    indexed.save(out, "PNG", optimize=True)
    with Image.open(io.BytesIO(out.getvalue())) as check:
        same = check.convert("RGBA").tobytes() == rgba.tobytes()
    return out.getvalue() if same and out.tell() < len(png) else png


def generate(source=SOURCE):
    """{file name: PNG bytes} of every icon, from the SVG at ``source``."""
    svg_text = Path(source).read_text(encoding="utf-8")
    return {name: render(svg_text, *spec) for name, spec in ICONS.items()}


def main(folder=FOLDER):
    folder.mkdir(parents=True, exist_ok=True)
    for name, png in generate().items():
        (folder / name).write_bytes(png)
        print("wrote %s (%d bytes)" % ((folder / name).relative_to(STATIC.parent.parent), len(png)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
