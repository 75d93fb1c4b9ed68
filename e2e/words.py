"""The journeys are written in English; `E2E_LANGUAGE=pt-PT` runs them in Portuguese. Every text a
journey looks for or clicks (`sees`, `press`, `follow`, `fill`'s label, ...) goes through `words()`:
the app's own catalogue (Resources/Locales/<language>/*.po) gives the Portuguese of an English text,
and a text with values in it ("Welcome to Fieldhouse, Robin!") is matched against the catalogue's
texts with placeholders ("Welcome to Fieldhouse, {name}!"). What the catalogue does not know
(names, captions, what people typed) is looked for as written."""

import os
import re
from pathlib import Path

LANGUAGE = os.environ.get("E2E_LANGUAGE", "en")
_ROOT = Path(__file__).resolve().parent.parent


def _unquote(text):
    body = text.strip()[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _load():
    texts, patterns = {}, []
    folder = _ROOT / "Resources" / "Locales" / LANGUAGE
    for path in sorted(folder.glob("*.po")) if LANGUAGE != "en" else []:
        entry, last = {}, None
        for line in path.read_text(encoding="utf-8").splitlines() + [""]:
            line = line.strip()
            if not line:
                if entry.get("msgid"):
                    # Plural entries: the journeys count, so take the plural form for the plural text
                    # and the singular for the singular.
                    if "msgid_plural" in entry:
                        pairs = [(entry["msgid"], entry.get("msgstr[0]", "")), (entry["msgid_plural"], entry.get("msgstr[1]", ""))]
                    else:
                        pairs = [(entry["msgid"], entry.get("msgstr", ""))]
                    for english, translated in pairs:
                        if translated:
                            texts.setdefault(english, translated)
                entry, last = {}, None
                continue
            if line.startswith("#"):
                continue
            if line.startswith('"') and last:
                entry[last] += _unquote(line)
                continue
            keyword, _, rest = line.partition(" ")
            entry[keyword] = _unquote(rest)
            last = keyword
    for english, translated in texts.items():
        # A pattern needs words of its own: "{place} {detail}" would match anything.
        if "{" in english and len(re.sub(r"\{[a-z_0-9]+\}|[^A-Za-z]", "", english)) >= 4:
            names = re.findall(r"\{([a-z_][a-z0-9_]*)\}", english)
            regex = re.escape(english)
            for name in dict.fromkeys(names):
                regex = regex.replace(re.escape("{" + name + "}"), f"(?P<{name}>.+?)", 1)
                regex = regex.replace(re.escape("{" + name + "}"), f"(?P={name})")
            patterns.append((re.compile(regex + "$"), translated))
    # Longer texts first, so a whole sentence wins over a short one it happens to match.
    patterns.sort(key=lambda p: -len(p[0].pattern))
    return texts, patterns


_TEXTS, _PATTERNS = _load()


def words(english):
    """`english` in the language the journeys run in, or as written when the catalogue does not have it."""
    if LANGUAGE == "en" or not isinstance(english, str):
        return english
    if english in _TEXTS:
        return _TEXTS[english]
    for regex, translated in _PATTERNS:
        match = regex.match(english)
        if match:
            return re.sub(r"\{([a-z_][a-z0-9_]*)\}", lambda m: match.group(m.group(1)) if m.group(1) in match.groupdict() else m.group(0), translated)
    return english


def finders(english):
    """Regular expressions that find `english` on a page in the journeys' language. A journey may look
    for part of a sentence ("Some answers need another look"): in Portuguese that is any sentence of
    the catalogue that holds it, with its placeholders matching anything."""
    whole = words(english)
    if LANGUAGE == "en" or whole != english or not re.search(r"[A-Za-z]{3}", english):
        return [re.compile(re.escape(whole))]
    found = []
    for key, translated in _TEXTS.items():
        if english in key and key != english:
            parts = re.split(r"\{[a-z_][a-z0-9_]*\}", translated)
            found.append(re.compile(".+?".join(re.escape(part) for part in parts)))
    return found or [re.compile(re.escape(english))]


def found_in(text, english):
    """Whether `english` (or, running in Portuguese, its translation) is in `text`."""
    return any(finder.search(text) for finder in finders(english))


def starts(text, english):
    """Whether `text` starts with `english` or its translation (a button, a link, a label)."""
    lowered = text.strip().lower()
    return any(finder.match(lowered) or finder.match(text.strip()) for finder in finders(english)) or lowered.startswith(
        words(english).lower())


BROWSER_LANGUAGE = "pt-PT" if LANGUAGE == "pt-PT" else "en-GB"
