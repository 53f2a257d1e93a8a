"""PDFs written byte by byte, for the shapes reportlab never writes: a page whose stream unpacks to far more than its
size, forms drawn again and again or nested deep, a font whose character map is huge."""

import zlib


def pdf_of_objects(objects: list[bytes], *, root: int, version: bytes = b"1.7") -> bytes:
    """A PDF of these objects (numbered from 1, in order), with its cross-reference table and a trailer naming object
    ``root`` as the catalog."""
    out, offsets = b"%PDF-" + version + b"\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)


def _compressed_stream(dictionary: bytes, content: bytes) -> bytes:
    stream = zlib.compress(content, 9)
    return b"<< %s /Filter /FlateDecode /Length %d >>\nstream\n" % (dictionary, len(stream)) + stream + b"\nendstream"


def pdf_of_one_page(content: bytes) -> bytes:
    """A one-page PDF whose page's content stream is ``content``, compressed."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        _compressed_stream(b"", content),
    ]
    return pdf_of_objects(objects, root=1, version=b"1.4")


def pdf_drawing_forms(forms: list[bytes], page: bytes, *, nested: bool = False, to_unicode: bytes = b"") -> bytes:
    """A one-page PDF whose page draws Form XObjects /X0, /X1... (each stream compressed) with ``page``; ``nested``
    puts each form inside the one before it (X0 holds X1, which holds X2...), else the page holds them all. The font
    (object 1) has ``to_unicode`` as its character map when given."""
    objects: list[bytes] = [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    if to_unicode:
        objects[0] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 2 0 R >>"
        objects.append(_compressed_stream(b"", to_unicode))
    form_numbers: list[int] = []
    for index, content in enumerate(forms):
        inner = (
            b"/XObject << /X%d %d 0 R >>" % (index + 1, len(objects) + 2) if nested and index + 1 < len(forms) else b""
        )
        resources = b"/Resources << /Font << /F1 1 0 R >> %s >>" % inner
        objects.append(_compressed_stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + resources, content))
        form_numbers.append(len(objects))
    shown = form_numbers[:1] if nested else form_numbers
    names = b" ".join(b"/X%d %d 0 R" % (index, number) for index, number in enumerate(shown))
    objects.append(b"<< /Length %d >>\nstream\n" % len(page) + page + b"\nendstream")
    contents = len(objects)
    objects.append(
        b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
        b"/Resources << /Font << /F1 1 0 R >> /XObject << %s >> >> >>" % (len(objects) + 2, contents, names)
    )
    objects.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % len(objects))
    objects.append(b"<< /Type /Catalog /Pages %d 0 R >>" % len(objects))
    return pdf_of_objects(objects, root=len(objects))
