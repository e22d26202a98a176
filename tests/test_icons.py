"""The home-screen icons (web_ui/icons.py): the committed PNGs are what resvg draws from
favicon.svg today, each at its size, the full-bleed ones with no clear corner and the maskable
one's drawing inside its safe circle."""

import io

from PIL import Image
from test_app_shell import _image

from web_ui import icons


def _pixels(png):
    with Image.open(io.BytesIO(png)) as image:
        return image.size, image.convert("RGBA").tobytes()


def test_the_committed_icons_are_what_the_generator_draws_from_the_svg_today():
    """Drawn by resvg from favicon.svg (make icons): a changed drawing with stale PNGs fails here."""
    made = icons.generate()
    assert set(made) == set(icons.ICONS)
    for name, png in made.items():
        committed = (icons.FOLDER / name).read_bytes()
        assert _pixels(committed) == _pixels(png), "%s is stale: run `make icons`" % name


def test_the_generator_follows_the_drawing(tmp_path):
    """The check above can fail: another drawing gives other pixels."""
    changed = tmp_path / "favicon.svg"
    changed.write_text(icons.SOURCE.read_text(encoding="utf-8").replace("#f2c14e", "#ff0000"), encoding="utf-8")
    for name, png in icons.generate(changed).items():
        assert _pixels(png) != _pixels((icons.FOLDER / name).read_bytes()), name


def test_each_icon_has_its_size_and_the_full_bleed_ones_leave_no_transparent_corner():
    for name, (size, bleed, _share, _purpose) in icons.ICONS.items():
        image = _image(icons.FOLDER / name)
        assert image.size == (size, size), name
        corner = image.getpixel((0, 0))
        if bleed:        # maskable (cut by the platform) and Apple's (a clear corner turns black)
            assert "#%02x%02x%02x" % corner[:3] == icons.BACKGROUND and corner[3] == 255, name
        else:            # the favicon's own rounded tile
            assert corner[3] == 0, name
    maskable = _image(icons.FOLDER / "icon-maskable-512.png")
    background = tuple(int(icons.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5))
    # the dial's ring stays inside the safe circle (radius 40 % of the side): nothing of the dial
    # beyond it, only the background (give or take the tile's own anti-aliased edge)
    for x in range(0, 512, 4):
        for y in range(0, 512, 4):
            if (x - 256) ** 2 + (y - 256) ** 2 > (0.4 * 512) ** 2:
                pixel = maskable.getpixel((x, y))
                assert max(abs(a - b) for a, b in zip(pixel, background)) <= 2, (x, y)
    ring = [maskable.getpixel((256 + dx, 256)) for dx in range(205)]
    assert any(r > 200 and g > 150 for r, g, _, _ in ring)      # and the ring is there, inside it


def test_an_icon_of_few_colours_is_kept_with_a_palette_and_the_same_pixels():
    """The drawing has a few dozen colours; resvg writes 32-bit pixels. Kept as a palette PNG
    the same pixels weigh under half (Apple's, which every page links, 5.4 KB before: the table
    page and its assets had grown past their 200 KB)."""
    for name in icons.ICONS:
        png = (icons.FOLDER / name).read_bytes()
        with Image.open(io.BytesIO(png)) as image:
            assert image.mode == "P" and image.info.get("transparency") is not None, name
        drawn = icons.drawn(icons.SOURCE.read_text(encoding="utf-8"), *icons.ICONS[name])
        assert _pixels(png) == _pixels(drawn) and len(png) < 0.6 * len(drawn), name


def test_an_icon_of_many_colours_is_left_as_drawn():
    """Past 256 colours a palette can't hold the pixels: the PNG stays as resvg drew it."""
    many = Image.new("RGBA", (20, 20))
    many.putdata([(i % 256, i // 256 * 100, 7, 255) for i in range(300)] + [(0, 0, 0, 0)] * 100)
    out = io.BytesIO()
    many.save(out, "PNG")
    assert icons.packed(out.getvalue()) == out.getvalue()
