#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""glyph_lies.py KIND IN OUT TITLE: page 1 of IN (another paper) gets a new
title block whose ink shows other letters than its text layer claims; the
text layer claims TITLE (the record's). OUT is then stamped --force with the
record, as a forger would. Issue 34: each lie about which letters the glyphs
are, made with pikepdf and fontTools (Debian's python3-pikepdf,
python3-fonttools) on a real PDF:

  tounicode    Helvetica with /Differences drawing another title's letters,
               and a /ToUnicode mapping each code to TITLE's letter at the
               same position (the attack measured in the issue)
  type3        a Type 3 font whose glyph procedures named after TITLE's
               letters paint other letters, TITLE in rot13 (no /ToUnicode:
               the names speak)
  truetype     an embedded TrueType font whose glyphs for TITLE's letters
               have the outlines of TITLE's letters in rot13 (WinAnsi codes,
               no /ToUnicode, no /Differences: only the font program lies)
  actualtext   another title drawn honestly, inside a marked-content span
               whose /ActualText is TITLE, scaled so its width matches
  mixed        TITLE drawn truly but for its last three words, whose letters
               lie through /ToUnicode (a few letters only)
  honest       control: TITLE drawn truly in the same font, same place (the
               new title block verifies like the original; IN's own title stays)
"""
import io
import sys

import pikepdf
from pikepdf import Array, Dictionary, Name

DECOY = ("Cats and their discontents: why domestic felines resist every kind of training and what their owners "
         "could learn from large cats living in the wild, with notes on dogs")
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 15
LEADING = 19


def decoy_for(title):
    """Another paper's letters at TITLE's positions: spaces and punctuation
    where TITLE has them, DECOY's letters (in order) elsewhere."""
    letters = [c for c in DECOY if c.isalpha()]
    out, k = [], 0
    for c in title:
        if c.isalpha():
            d = letters[k % len(letters)]
            k += 1
            out.append(d.upper() if c.isupper() else d.lower())
        else:
            out.append(c)
    return "".join(out)


def lines_of(text, width=48):
    """Words wrapped at `width` characters: the title block's lines (each
    keeps the spaces between its words; the break is a line, not a space)."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def hexstring(codes):
    return "<" + "".join(f"{c:02X}" for c in codes) + ">"


def literal(text):
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def helvetica_widths():
    """Helvetica's advance widths by character (the 14-font metrics poppler
    uses), read from DejaVu Sans scaled to 1000 units: close enough that no
    squeeze test sees a claimed width that does not fit."""
    from fontTools.ttLib import TTFont
    font = TTFont(DEJAVU)
    scale = 1000 / font["head"].unitsPerEm
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    return lambda ch: round(hmtx[cmap.get(ord(ch), cmap[ord("x")])][0] * scale)


def tounicode_cmap(pairs):
    """A /ToUnicode CMap stream's bytes for (code, text) pairs."""
    body = "".join(f"<{code:02X}> <{''.join(f'{ord(c):04X}' for c in text)}>\n" for code, text in pairs)
    return ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Lie def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n"
            f"{len(pairs)} beginbfchar\n{body}endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
            ).encode("ascii")


def glyph_name(ch):
    from fontTools.agl import UV2AGL
    return UV2AGL.get(ord(ch), f"uni{ord(ch):04X}")


def codes_font(pdf, drawn, claimed, width_of):
    """A simple font (Helvetica by /Differences) whose code i draws drawn[i]
    and whose /ToUnicode says claimed[i]: one code per distinct pair."""
    pairs, codes = {}, []
    for d, c in zip(drawn, claimed):
        if (d, c) not in pairs:
            pairs[(d, c)] = len(pairs) + 1
        codes.append(pairs[(d, c)])
    if len(pairs) > 250:
        sys.exit("glyph_lies.py: too many distinct letters for one simple font")
    differences = [1]
    for (d, _c), _code in sorted(pairs.items(), key=lambda kv: kv[1]):
        differences.append(Name("/" + glyph_name(d)))
    widths = [width_of(d) for (d, _c), _code in sorted(pairs.items(), key=lambda kv: kv[1])]
    font = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica, FirstChar=1,
                      LastChar=len(pairs), Widths=Array(widths),
                      Encoding=Dictionary(Type=Name.Encoding, Differences=Array(differences)))
    font.ToUnicode = pdf.make_stream(tounicode_cmap([(code, c) for (_d, c), code in pairs.items()]))
    return pdf.make_indirect(font), codes


def text_block(font_name, lines_codes, x=72, y=330, scale=None):
    ops = [f"BT /{font_name} {SIZE} Tf {LEADING} TL {x} {y} Td"]
    if scale:
        ops.append(f"{scale:.2f} Tz")
    for k, codes in enumerate(lines_codes):
        ops.append(("" if k == 0 else "T* ") + f"{codes} Tj")
    ops.append("ET")
    return " ".join(ops)


def split_codes(codes, lines):
    """The codes of each line: the title's characters, less the spaces that became line breaks."""
    out, at = [], 0
    for line in lines:
        out.append(codes[at:at + len(line)])
        at += len(line) + 1
    return out


def lie_by_tounicode(pdf, title, drawn):
    width_of = helvetica_widths()
    font, codes = codes_font(pdf, drawn, title, width_of)
    lines = lines_of(title)
    return {"FLie": font}, text_block("FLie", [hexstring(c) for c in split_codes(codes, lines)])


def lie_by_type3(pdf, title, drawn):
    """Glyph procedures named after the claimed letters, each painting the drawn one in Helvetica."""
    helvetica = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
    width_of = helvetica_widths()
    pairs, codes = {}, []
    for d, c in zip(drawn, title):
        if (d, c) not in pairs:
            pairs[(d, c)] = len(pairs) + 1
        codes.append(pairs[(d, c)])
    procs, differences, widths = Dictionary(), [1], []
    for (d, c), code in sorted(pairs.items(), key=lambda kv: kv[1]):
        unique = glyph_name(c)  # one drawing per claimed letter (rot13): the names are the AGL's
        w = width_of(d)
        paint = "" if d == " " else f"BT /H 1000 Tf {literal(d)} Tj ET"
        procs[Name("/" + unique)] = pdf.make_stream(f"{w} 0 d0 {paint}".encode("latin-1"))
        differences.append(Name("/" + unique))
        widths.append(w)
    font = Dictionary(Type=Name.Font, Subtype=Name.Type3, FontBBox=[0, -250, 1200, 1000],
                      FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=procs, FirstChar=1, LastChar=len(pairs),
                      Widths=Array(widths), Encoding=Dictionary(Type=Name.Encoding, Differences=Array(differences)),
                      Resources=Dictionary(Font=Dictionary(H=helvetica)))
    lines = lines_of(title)
    return {"FLie": pdf.make_indirect(font)}, text_block("FLie", [hexstring(c) for c in split_codes(codes, lines)])


def lying_truetype(title, drawn):
    """DejaVu Sans with each claimed letter's glyph given the drawn letter's
    outline and advance: the font program itself lies."""
    from fontTools.ttLib import TTFont
    font = TTFont(DEJAVU)
    cmap = font.getBestCmap()
    glyf, hmtx = font["glyf"], font["hmtx"]
    swaps = {}
    for d, c in zip(drawn, title):
        if c.isalpha() and d != c:
            swaps.setdefault(cmap[ord(c)], cmap[ord(d)])
    originals = {name: (glyf[name], hmtx[name]) for name in set(swaps.values())}
    for claimed, drawn_name in swaps.items():
        if claimed not in originals:
            originals[claimed] = (glyf[claimed], hmtx[claimed])
    for claimed, drawn_name in swaps.items():
        glyf[claimed] = originals[drawn_name][0]
        hmtx[claimed] = originals[drawn_name][1]
    out = io.BytesIO()
    font.save(out)
    widths = []
    scale = 1000 / font["head"].unitsPerEm
    for code in range(32, 256):
        ch = bytes([code]).decode("cp1252", errors="replace")
        glyph = cmap.get(ord(ch))
        widths.append(round(hmtx[glyph][0] * scale) if glyph else 0)
    return out.getvalue(), widths


def lie_by_truetype(pdf, title, drawn):
    program, widths = lying_truetype(title, drawn)
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/DejaVuSans"), Flags=32,
                            FontBBox=[-1021, -463, 1793, 1232], ItalicAngle=0, Ascent=928, Descent=-236,
                            CapHeight=729, StemV=80, FontFile2=pdf.make_stream(program))
    font = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/DejaVuSans"), FirstChar=32,
                      LastChar=255, Widths=Array(widths), Encoding=Name.WinAnsiEncoding,
                      FontDescriptor=pdf.make_indirect(descriptor))
    lines = lines_of(title)
    return {"FLie": pdf.make_indirect(font)}, text_block("FLie", [literal(line) for line in lines])


def lie_by_actualtext(pdf, title, drawn):
    width_of = helvetica_widths()
    helvetica = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
    lines, drawn_lines = lines_of(title), split_codes(drawn, lines_of(title))
    ops = [f"BT /FLie {SIZE} Tf {LEADING} TL 72 330 Td"]
    for k, (claimed, shown) in enumerate(zip(lines, drawn_lines)):
        # The shown line scaled to the claimed line's width: no squeeze.
        scale = 100 * sum(width_of(c) for c in claimed) / max(1, sum(width_of(c) for c in shown))
        hexed = "<FEFF" + "".join(f"{ord(c):04X}" for c in claimed) + ">"
        ops.append(("" if k == 0 else "T* ") + f"{scale:.2f} Tz /Span << /ActualText {hexed} >> BDC {literal(shown)} Tj EMC")
    ops.append("ET")
    return {"FLie": helvetica}, " ".join(ops)


def rot13(text):
    return text.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                                        "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm"))


def mixed_drawing(title):
    """TITLE with its last three words drawn as other words of the same lengths."""
    words = title.split(" ")
    tail = decoy_for(" ".join(words[-3:]))
    return " ".join(words[:-3] + [tail])


def main():
    kind, src, dst, title = sys.argv[1:5]
    drawn = {"mixed": mixed_drawing, "honest": str, "type3": rot13, "truetype": rot13}.get(kind, decoy_for)(title)
    assert len(drawn) == len(title)
    with pikepdf.open(src) as pdf:
        page = pdf.pages[0]
        if kind in ("tounicode", "mixed", "honest"):
            fonts, ops = lie_by_tounicode(pdf, title, drawn)
        elif kind == "type3":
            fonts, ops = lie_by_type3(pdf, title, drawn)
        elif kind == "truetype":
            fonts, ops = lie_by_truetype(pdf, title, drawn)
        elif kind == "actualtext":
            fonts, ops = lie_by_actualtext(pdf, title, drawn)
        else:
            sys.exit(f"glyph_lies.py: unknown kind {kind}")
        resources = page.obj.get(Name.Resources)
        if Name.Font not in resources:
            resources.Font = Dictionary()
        for name, font in fonts.items():
            resources.Font[Name("/" + name)] = font
        # Below the other paper's title, in the empty part of its page 1.
        page.contents_add(pikepdf.Stream(pdf, ("0 g " + ops).encode("latin-1")), prepend=False)
        pdf.save(dst)


if __name__ == "__main__":
    main()
