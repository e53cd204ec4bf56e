#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""glyph_forgeries.py KIND OUT TITLE: a one-page PDF whose page 1 text layer
reads TITLE (the record's) in three lines at 16 pt, while its glyphs draw
another paper's letters (issue 34: the mapping lies), built with pikepdf
(Debian's python3-pikepdf). Every word keeps its length and its place, so
the text layer's boxes and widths fit the drawn glyphs.
  honest      the title drawn as it reads (a control: it must verify)
  tounicode   Helvetica drawing the other letters; /ToUnicode maps each
              code to the record's letter at the same position
  actualtext  the other letters, truthfully encoded, inside a marked-content
              span whose /ActualText is the record's title line
  type3       a Type 3 font whose glyph names (/Differences) are the record's
              letters and whose procedures draw the other letters
  mix         as tounicode, but only the first three words lie
"""
import sys

import pikepdf
from pikepdf import Array, Dictionary, Name

OTHER = "catsandtheirdiscontentsastudyoffelinemoodsinsmallcitieswithoutanyrainfall"


def lines_of(title, width=40):
    lines, line = [], ""
    for word in title.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    return lines + [line]


def drawn_for(line, offset, lie_words=None):
    """The other paper's letters in the shape of `line`'s words."""
    out, k = [], offset
    for i, word in enumerate(line.split(" ")):
        if lie_words is not None and i >= lie_words:
            out.append(word)
            continue
        out.append("".join(OTHER[(k + j) % len(OTHER)] for j in range(len(word))))
        k += len(word)
    return " ".join(out), k


NAMES = {":": "colon", ",": "comma", ".": "period", "-": "hyphen", "'": "quotesingle"}


def glyph_name(ch):
    return Name("/" + NAMES.get(ch, ch))


def cmap(pairs):
    body = "".join("<%02X> <%04X>\n" % (code, ord(ch)) for code, ch in pairs)
    return ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
            "1 begincodespacerange <00> <FF> endcodespacerange\n"
            "%d beginbfchar\n%sendbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
            % (len(pairs), body)).encode()


def pdf_string(text):
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def main(kind, out, title):
    pdf = pikepdf.new()
    lines = lines_of(title)
    helvetica = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                           Encoding=Name.WinAnsiEncoding)
    fonts = Dictionary(H=helvetica)
    ops, y, k = [], 720, 0
    if kind in ("honest", "actualtext"):
        for line in lines:
            drawn, k = drawn_for(line, k) if kind == "actualtext" else (line, k)
            text = "BT /H 16 Tf 72 %d Td %s Tj ET" % (y, pdf_string(drawn))
            if kind == "actualtext":
                text = "/Span << /ActualText %s >> BDC %s EMC" % (pdf_string(line), text)
            ops.append(text)
            y -= 22
    else:
        # One code per position: code c draws drawn[c] and claims line[c].
        drawn_lines = []
        for line in lines:
            drawn, k = drawn_for(line, k, 3 if kind == "mix" and not drawn_lines else (0 if kind == "mix" else None))
            drawn_lines.append(drawn)
        pairs, differences, code, strings = [], [], 33, []
        for line, drawn in zip(lines, drawn_lines):
            codes = ""
            for claimed, shown in zip(line, drawn):
                if claimed == " ":
                    codes += "\\040"
                    continue
                pairs.append((code, claimed))
                differences += [code, glyph_name(shown)]
                codes += "\\%03o" % code
                code += 1
            strings.append("(" + codes + ")")
        if kind == "type3":
            procs = Dictionary()
            shown_char = {}
            for line, drawn in zip(lines, drawn_lines):
                for claimed, shown in zip(line, drawn):
                    if claimed != " ":
                        shown_char[len(shown_char) + 33] = shown
            diff3 = []
            for c, claimed in pairs:
                name = "uni%04X.g%d" % (ord(claimed), c)  # a variant of the claimed letter (AGL: the suffix is dropped)
                procs[Name("/" + name)] = pdf.make_stream(
                    ("556 0 d0 BT /H 1000 Tf 0 0 Td %s Tj ET" % pdf_string(shown_char[c])).encode())
                # the glyph's name claims the record's letter (uniXXXX)
                diff3 += [c, Name("/" + name)]
            font = Dictionary(Type=Name.Font, Subtype=Name.Type3, FontBBox=[0, -250, 1000, 1000],
                              FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=procs,
                              Encoding=Dictionary(Type=Name.Encoding, Differences=Array(diff3 + [32, Name.space])),
                              FirstChar=32, LastChar=pairs[-1][0],
                              Resources=Dictionary(Font=Dictionary(H=helvetica)))
            font.Widths = Array([278 if c == 32 else 556 for c in range(32, pairs[-1][0] + 1)])
            procs[Name.space] = pdf.make_stream(b"278 0 d0")
            fonts = Dictionary(F=font)
        else:
            lying = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                               Encoding=Dictionary(Type=Name.Encoding, BaseEncoding=Name.WinAnsiEncoding,
                                                   Differences=Array(differences)),
                               ToUnicode=pdf.make_stream(cmap(pairs + [(32, " ")])))
            fonts = Dictionary(F=lying)
        for s in strings:
            ops.append("BT /F 16 Tf 72 %d Td %s Tj ET" % (y, s))
            y -= 22
    ops.append("BT /H 11 Tf 72 %d Td (A. Author) Tj ET" % (y - 20))
    if "H" not in fonts:
        fonts.H = helvetica
    page = pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=[0, 0, 612, 792],
                                   Resources=Dictionary(Font=fonts),
                                   Contents=pdf.make_stream("\n".join(ops).encode())))
    pdf.pages.append(page)
    pdf.docinfo.Title = title
    pdf.save(out)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
