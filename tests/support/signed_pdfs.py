#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Certified PDFs for tests (tests/integration/pith_stamp_signed.sh).

  signed_pdfs.py certify IN.pdf OUT.pdf P KEY.pem CERT.pem

writes IN.pdf with a certification signature (ISO 32000-2 12.8.2.2: catalog
/Perms /DocMDP naming a signature whose /Reference carries the DocMDP
transform with /P P), signed as adbe.pkcs7.detached by `openssl cms` with
KEY/CERT over the /ByteRange, so pdfsig reports it valid. pikepdf writes the
file (a full rewrite, before anything is signed); the signature's /ByteRange
and /Contents are then filled in place.
"""
import re
import subprocess
import sys

import pikepdf

CONTENTS_BYTES = 8192  # room for the DER signature
PLACEHOLDER_RANGE = b"[0 1111111111 2222222222 3333333333]"


def certify(src, dst, permissions, key, cert):
    with pikepdf.open(src) as pdf:
        reference = pikepdf.Dictionary(
            Type=pikepdf.Name.SigRef,
            TransformMethod=pikepdf.Name.DocMDP,
            TransformParams=pikepdf.Dictionary(Type=pikepdf.Name.TransformParams, P=int(permissions),
                                               V=pikepdf.Name("/1.2")))
        signature = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Sig,
            Filter=pikepdf.Name("/Adobe.PPKLite"),
            SubFilter=pikepdf.Name("/adbe.pkcs7.detached"),
            Name=pikepdf.String("Pith Test Certifier"),
            M=pikepdf.String("D:20240101000000Z"),
            Reference=pikepdf.Array([reference]),
            ByteRange=pikepdf.Array([0, 1111111111, 2222222222, 3333333333]),
            Contents=pikepdf.String(b"\0" * CONTENTS_BYTES)))
        page = pdf.pages[0]
        field = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget, FT=pikepdf.Name.Sig,
            T=pikepdf.String("Certification"), V=signature, F=132, Rect=[0, 0, 0, 0], P=page.obj))
        page.obj.Annots = pdf.make_indirect(pikepdf.Array(list(page.obj.get("/Annots", [])) + [field]))
        pdf.Root.AcroForm = pdf.make_indirect(pikepdf.Dictionary(Fields=[field], SigFlags=3))
        pdf.Root.Perms = pikepdf.Dictionary(DocMDP=signature)
        pdf.save(dst, object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=False, static_id=True)
    data = bytearray(open(dst, "rb").read())
    contents = re.search(rb"/Contents\s*<(0{%d})>" % (2 * CONTENTS_BYTES), data)
    byte_range = re.search(rb"/ByteRange\s*\[\s*0\s+1111111111\s+2222222222\s+3333333333\s*\]", data)
    if not contents or not byte_range:
        sys.exit("signed_pdfs.py: placeholders not found in what pikepdf wrote")
    start, end = contents.start(1) - 1, contents.end(1) + 1  # the hex string with its < >
    ranges = b"[0 %d %d %d]" % (start, end, len(data) - end)
    data[byte_range.start():byte_range.end()] = b"/ByteRange " + ranges.ljust(byte_range.end() - byte_range.start() - 11)
    signed = bytes(data[:start]) + bytes(data[end:])
    der = subprocess.run(["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-nosmimecap",
                          "-signer", cert, "-inkey", key], input=signed, stdout=subprocess.PIPE, check=True).stdout
    if len(der) > CONTENTS_BYTES:
        sys.exit("signed_pdfs.py: the signature does not fit")
    data[start + 1:end - 1] = der.hex().encode().ljust(2 * CONTENTS_BYTES, b"0")
    open(dst, "wb").write(data)


if __name__ == "__main__":
    if len(sys.argv) != 7 or sys.argv[1] != "certify":
        sys.exit(__doc__)
    certify(*sys.argv[2:])
