"""Read an HTML form the way a browser would submit it, so tests can post a change form with its inlines."""

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.fields = form_id, False, []
        self._select: str | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on")))
            else:
                self.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data):
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            text = "".join(self._text)
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None


def form_data(html: str, form_id: str) -> dict[str, str | list[str]]:
    """The fields of ``<form id=form_id>`` with their current values; repeated names become lists."""
    reader = _FormReader(form_id)
    reader.feed(html)
    data: dict[str, str | list[str]] = {}
    for name, value in reader.fields:
        if name in data:
            current = data[name]
            data[name] = [*current, value] if isinstance(current, list) else [current, value]
        else:
            data[name] = value
    return data
