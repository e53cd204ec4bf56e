#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""forgeries.py KIND IN OUT [ARG]: the attacks of issue 22 and their controls,
made from real PDFs with pikepdf (Debian's python3-pikepdf).

Page-1 hiding (IN: another paper; OUT is then stamped --force with the
record, as a forger would): the record's title TITLE (ARG) is put on page 1
where no reader sees it:
  white         in white
  tiny          at 0.05 pt
  invisible     in text render mode 3
  painted       painted over by a white rectangle
  behind-image  under an opaque image
  clipped       clipped away
  over-title    invisibly, exactly over the other paper's visible title
  white-over    in white, exactly over the other paper's visible title
  annotation    under an annotation's opaque appearance
  cropped       outside the CropBox
  ocg-off       in optional content set OFF
  squeezed      squeezed horizontally to 2 %
arXiv (ARG: an arXiv id with version):
  zero-link     a link to arxiv.org/abs/ID with /Rect [0 0 0 0], nothing shown
  wm-white      arXiv's watermark text in white, with its link
  wm-tiny       arXiv's watermark text at 0.05 pt, with its link
  watermark     arXiv's watermark as arXiv adds it (grey, in the margin): a control
Later incremental updates to a genuine stamped PDF (IN), as a forger would
append them (the stamped bytes stay intact):
  swap-page     page 1 redrawn: its content, a white rectangle over the whole
                page, and another title (ARG)
  swap-badge    pith-stamp's --badge annotation redefined as a full-page opaque
                overlay showing another title (ARG)
  add-note      a small note annotation beside the title (a reader's comment:
                page 1 changed, the title still seen)
  edit-page     one word changed on page ARG (a number): its content stream
                replaced, as an editor saving incrementally would
"""
import re
import sys

import pikepdf
from pikepdf import Array, Dictionary, Name

FONT = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)


def pdf_string(text):
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def add_content(pdf, page, ops, fonts=None, xobjects=None, properties=None):
    resources = page.obj.get(Name.Resources)
    if resources is None:
        page.obj.Resources = resources = Dictionary()
    for key, sub in ((Name.Font, fonts), (Name.XObject, xobjects), (Name.Properties, properties)):
        if not sub:
            continue
        if key not in resources:
            resources[key] = Dictionary()
        for name, value in sub.items():
            resources[key][name] = value
    page.contents_add(pikepdf.Stream(pdf, ops.encode("latin-1")), prepend=False)


def title_ops(title, prefix="", size=9, x=72, y=300):
    return f"q {prefix} BT /FPith {size} Tf {x} {y} Td {pdf_string(title)} Tj ET Q"


def hide(kind, src, dst, title):
    with pikepdf.open(src) as pdf:
        page = pdf.pages[0]
        fonts = {"/FPith": FONT}
        if kind == "white":
            add_content(pdf, page, title_ops(title, "1 1 1 rg"), fonts)
        elif kind == "tiny":
            add_content(pdf, page, title_ops(title, size=0.05), fonts)
        elif kind == "invisible":
            add_content(pdf, page, title_ops(title, "3 Tr"), fonts)
        elif kind == "squeezed":
            add_content(pdf, page, title_ops(title, "2 Tz"), fonts)
        elif kind == "painted":
            add_content(pdf, page, title_ops(title) + " q 1 1 1 rg 60 290 500 30 re f Q", fonts)
        elif kind == "behind-image":
            image = pikepdf.Stream(pdf, bytes([200, 120, 60, 240]))
            image.Type, image.Subtype = Name.XObject, Name.Image
            image.Width, image.Height, image.BitsPerComponent = 2, 2, 8
            image.ColorSpace = Name.DeviceGray
            add_content(pdf, page, title_ops(title) + " q 500 0 0 30 60 290 cm /ImPith Do Q", fonts,
                        {"/ImPith": pdf.make_indirect(image)})
        elif kind == "clipped":
            add_content(pdf, page, title_ops(title, "0 0 1 1 re W n"), fonts)
        elif kind in ("over-title", "white-over"):
            # The other paper's title, visible, and the record's drawn over it.
            shown = "Cats and their discontents"
            hidden = "3 Tr" if kind == "over-title" else "1 1 1 rg"
            add_content(pdf, page, title_ops(shown) + " " + title_ops(title, hidden), fonts)
        elif kind == "annotation":
            add_content(pdf, page, title_ops(title), fonts)
            cover = pikepdf.Stream(pdf, b"1 1 1 rg 0 0 500 30 re f")
            cover.Type, cover.Subtype, cover.BBox = Name.XObject, Name.Form, [0, 0, 500, 30]
            note = Dictionary(Type=Name.Annot, Subtype=Name.Square, Rect=[60, 290, 560, 320], F=4,
                              AP=Dictionary(N=pdf.make_indirect(cover)))
            if Name.Annots not in page.obj:
                page.obj.Annots = pdf.make_indirect(Array())
            page.obj.Annots.append(pdf.make_indirect(note))
        elif kind == "cropped":
            add_content(pdf, page, title_ops(title, y=770), fonts)
            page.obj.CropBox = [0, 0, 612, 760]
        elif kind == "ocg-off":
            ocg = pdf.make_indirect(Dictionary(Type=Name.OCG, Name=pikepdf.String("Hidden")))
            pdf.Root.OCProperties = Dictionary(OCGs=[ocg], D=Dictionary(OFF=[ocg], ON=[], Order=[ocg]))
            add_content(pdf, page, "/OC /OCPith BDC " + title_ops(title) + " EMC", fonts, properties={"/OCPith": ocg})
        else:
            sys.exit(f"forgeries.py: unknown kind {kind}")
        pdf.save(dst)


def arxiv(kind, src, dst, ident):
    with pikepdf.open(src) as pdf:
        page = pdf.pages[0]
        text = f"arXiv:{ident}  [cs.LG]  1 Jan 2026"
        rect = [12, 240, 32, 600]
        if kind == "zero-link":
            rect = [0, 0, 0, 0]
        else:
            colour = {"watermark": "0.5 g", "wm-white": "1 g", "wm-tiny": "0.5 g"}[kind]
            size = 0.05 if kind == "wm-tiny" else 20
            add_content(pdf, page, f"q {colour} BT /FArXiv {size} Tf 0 1 -1 0 32 240 Tm {pdf_string(text)} Tj ET Q",
                        {"/FArXiv": Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Times_Roman)})
        link = Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=rect, Border=[0, 0, 0],
                          A=Dictionary(S=Name.URI, URI=pikepdf.String(f"https://arxiv.org/abs/{ident}")))
        if Name.Annots not in page.obj:
            page.obj.Annots = pdf.make_indirect(Array())
        page.obj.Annots.append(pdf.make_indirect(link))
        pdf.save(dst, compress_streams=True)


def append_update(src, dst, objects, size):
    """Appends an incremental update redefining `objects` ({number: bytes})
    to the bytes of src, as a later tool would (a classic xref section)."""
    data = open(src, "rb").read()
    with pikepdf.open(src) as pdf:
        root = pdf.trailer.Root.objgen
    prev = int(data[data.rfind(b"startxref") + 9:].split()[0])
    out = bytearray(data)
    if not out.endswith(b"\n"):
        out += b"\n"
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n"
    for number in sorted(offsets):
        out += b"%d 1\n%010d 00000 n \n" % (number, offsets[number])
    out += b"trailer\n<< /Size %d /Root %d %d R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (size, root[0], root[1], prev, xref)
    open(dst, "wb").write(out)


def serialised(obj):
    """The bytes of an indirect object's body: its dictionary (nested
    indirect objects as references) and, for a stream, its raw data."""
    if isinstance(obj, pikepdf.Stream):
        data = obj.read_raw_bytes()
        head = obj.stream_dict.unparse(resolved=True)
        head = re.sub(rb"/Length \d+( \d+ R)?", b"", head)
        return head[:-2] + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
    return obj.unparse(resolved=True)


def later(kind, src, dst, other):
    with pikepdf.open(src) as pdf:
        page = pdf.pages[int(other) - 1 if kind == "edit-page" else 0].obj
        cover = f"q 1 1 1 rg 0 0 612 792 re f Q BT /FSwap 24 Tf 72 300 Td {pdf_string(other)} Tj ET".encode("latin-1")
        changed = []
        if kind == "swap-page":
            stream = pdf.make_indirect(pikepdf.Stream(pdf, cover))
            font = pdf.make_indirect(Dictionary(FONT))
            contents = page.Contents
            parts = list(contents) if isinstance(contents, Array) else [contents]
            page.Contents = Array(parts + [stream])
            resources = Dictionary(page.Resources)  # a direct copy: the original object stays as it was
            fonts = Dictionary(resources.get("/Font", Dictionary()))
            fonts.FSwap = font
            resources.Font = fonts
            page.Resources = resources
            changed = [page, stream, font]
        elif kind == "swap-badge":
            badge = None
            for annot in page.get("/Annots", []):
                action = annot.get("/A")
                if action is not None and "/pith/" in str(action.get("/URI", "")):
                    badge = annot
            if badge is None:
                sys.exit("forgeries.py: page 1 has no pith badge")
            font = pdf.make_indirect(Dictionary(FONT))
            form = pikepdf.Stream(pdf, cover)
            form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, [0, 0, 612, 792]
            form.Resources = Dictionary(Font=Dictionary(FSwap=font))
            form = pdf.make_indirect(form)
            badge.Rect = [0, 0, 612, 792]
            badge.AP = Dictionary(N=form)
            changed = [badge, form, font]
        elif kind == "edit-page":
            parts = page.Contents if isinstance(page.Contents, Array) else [page.Contents]
            data = b"\n".join(part.read_bytes() for part in parts)
            at = data.find(b"(e")
            if at < 0:
                sys.exit(f"forgeries.py: no word to edit on page {other}")
            stream = pdf.make_indirect(pikepdf.Stream(pdf, data[:at + 1] + b"X" + data[at + 2:]))
            page.Contents = stream
            changed = [page, stream]
        elif kind == "add-note":
            note = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=[560, 700, 580, 720], F=4,
                                                Contents=pikepdf.String("A reader's note")))
            annots = page.get("/Annots")
            if annots is None:
                page.Annots = Array([note])
                changed = [page, note]
            else:
                annots.append(note)
                changed = [annots if annots.is_indirect else page, note]
        else:
            sys.exit(f"forgeries.py: unknown kind {kind}")
        objects = {obj.objgen[0]: serialised(obj) for obj in changed}
        size = max(int(pdf.trailer.Size), max(objects) + 1)
    append_update(src, dst, objects, size)


def main():
    kind, src, dst = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else ""
    if kind in ("zero-link", "wm-white", "wm-tiny", "watermark"):
        arxiv(kind, src, dst, arg)
    elif kind in ("swap-page", "swap-badge", "add-note", "edit-page"):
        later(kind, src, dst, arg)
    else:
        hide(kind, src, dst, arg)


if __name__ == "__main__":
    main()
