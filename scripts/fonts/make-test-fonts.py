#!/usr/bin/env python3
"""Small font files for the font upload tests, made from Debian's packaged fonts (all under the SIL Open Font
License, which allows redistributing modified copies): Tests/TrellisAPITests/Fonts/Fixtures/.

- inter-latin.ttf, .woff, .woff2: Inter's variable font (fonts-inter-variable, axes wght and slnt) cut to Basic
  Latin with fontTools' pyftsubset, as TrueType, WOFF 1.0 and WOFF 2.0;
- pair.ttc: a TrueType collection of two faces (that subset, and DejaVu Sans cut to Basic Latin);
- deep.otf: Inter's static OTF (CFF outlines) cut to a few glyphs, whose charstring calls a local subroutine that
  calls itself: a maliciously deep font (OTS refuses it; nothing may recurse on it).

It also writes the seeds of the font-bytes fuzz target, fuzz/corpus/font-bytes/ (each under 16 KB, the fuzzer's
longest input): Inter's variable font, its static OTF, DejaVu Sans and Noto Color Emoji (CBDT bitmaps) cut to a
few characters, and a WOFF2 of the first.

The generated files are committed; run this again only to change them (python3 scripts/fonts/make-test-fonts.py).
Needs fontTools and brotli from PyPI (the versions pinned in the Makefile as FONTTOOLS_VERSION, BROTLI_VERSION).
"""

import pathlib
import shutil
import subprocess
import sys
import tempfile

from fontTools import subset
from fontTools.misc.psCharStrings import T2CharString
from fontTools.ttLib import TTCollection, TTFont

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures"
SEEDS = ROOT / "fuzz" / "corpus" / "font-bytes"
EMOJI = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
INTER_VARIABLE = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
INTER_STATIC = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BASIC_LATIN = "U+0020-007E"


def cut(source, target, unicodes, flavor=None):
    options = subset.Options()
    options.flavor = flavor
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(unicodes))
    subsetter.subset(font)
    subset.save_font(font, str(target), options)


def deep(target):
    """A CFF font whose glyph 'a' calls local subroutine 0, which calls itself: unbounded nesting."""
    with tempfile.TemporaryDirectory() as work:
        small = pathlib.Path(work) / "small.otf"
        cut(INTER_STATIC, small, "U+0061")
        font = TTFont(small, recalcBBoxes=False)
        cff = font["CFF "].cff
        top = cff.topDictIndex[0]
        private = top.Private
        bias = 107  # fewer than 1240 local subroutines
        recursive = T2CharString(program=[0 - bias, "callsubr", "return"], private=private,
                                 globalSubrs=cff.GlobalSubrs)
        if not hasattr(private, "Subrs") or private.Subrs is None:
            from fontTools.cffLib import SubrsIndex
            private.Subrs = SubrsIndex()
        private.Subrs.items = [recursive]
        glyph = top.CharStrings[font.getBestCmap()[0x61]]
        glyph.decompile()
        glyph.program = [0 - bias, "callsubr", "endchar"]
        font.save(str(target))


def main():
    for path in (INTER_VARIABLE, INTER_STATIC, DEJAVU, EMOJI):
        if not pathlib.Path(path).is_file():
            sys.exit(f"{path} is missing (apt-get install fonts-inter-variable fonts-inter fonts-dejavu-core fonts-noto-color-emoji)")
    OUT.mkdir(parents=True, exist_ok=True)
    cut(INTER_VARIABLE, OUT / "inter-latin.ttf", BASIC_LATIN)
    cut(INTER_VARIABLE, OUT / "inter-latin.woff", BASIC_LATIN, "woff")
    cut(INTER_VARIABLE, OUT / "inter-latin.woff2", BASIC_LATIN, "woff2")
    with tempfile.TemporaryDirectory() as work:
        dejavu = pathlib.Path(work) / "dejavu.ttf"
        cut(DEJAVU, dejavu, BASIC_LATIN)
        collection = TTCollection()
        collection.fonts = [TTFont(OUT / "inter-latin.ttf"), TTFont(dejavu)]
        collection.save(str(OUT / "pair.ttc"))
    deep(OUT / "deep.otf")
    SEEDS.mkdir(parents=True, exist_ok=True)
    cut(INTER_VARIABLE, SEEDS / "inter-variable.ttf", "U+0020,U+0048,U+0065,U+006C,U+006F,U+0066,U+0069")
    cut(INTER_VARIABLE, SEEDS / "inter-variable.woff2", "U+0020,U+0048,U+0065,U+006C,U+006F", "woff2")
    cut(INTER_STATIC, SEEDS / "inter-cff.otf", "U+0020,U+0041,U+0056,U+0066,U+0069")
    cut(DEJAVU, SEEDS / "dejavu.ttf", "U+0020,U+0041,U+0056,U+05E9,U+0644,U+0627")
    cut(EMOJI, SEEDS / "emoji-cbdt.ttf", "U+1F389")
    for seed in sorted(SEEDS.iterdir()):
        if seed.stat().st_size > 16384:
            sys.exit(f"{seed} is {seed.stat().st_size} bytes, more than the fuzzer's longest input")
    if shutil.which("ots-sanitize"):
        for name in sorted(p.name for p in OUT.iterdir()):
            with tempfile.TemporaryDirectory() as work:
                done = subprocess.run(["ots-sanitize", str(OUT / name), str(pathlib.Path(work) / "out")],
                                      capture_output=True, text=True)
                print(f"{name}: {(OUT / name).stat().st_size} bytes; ots-sanitize: exit {done.returncode} "
                      f"{done.stderr.strip()}")


if __name__ == "__main__":
    main()
