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


def _entries():
    """(English, translation, count rule) for every entry: a plural entry gives its singular (for
    a count of 1) and its plural (for any other count)."""
    folder = _ROOT / "Resources" / "Locales" / LANGUAGE
    for path in sorted(folder.glob("*.po")) if LANGUAGE != "en" else []:
        entry, last = {}, None
        for line in path.read_text(encoding="utf-8").splitlines() + [""]:
            line = line.strip()
            if not line:
                if entry.get("msgid"):
                    if "msgid_plural" in entry:
                        yield entry["msgid"], entry.get("msgstr[0]", ""), "one"
                        yield entry["msgid_plural"], entry.get("msgstr[1]", ""), "other"
                    else:
                        yield entry["msgid"], entry.get("msgstr", ""), None
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


def _pattern(english):
    """A regular expression for `english` with each {placeholder} a named group."""
    regex = re.escape(english)
    for name in dict.fromkeys(re.findall(r"\{([a-z_][a-z0-9_]*)\}", english)):
        regex = regex.replace(re.escape("{" + name + "}"), f"(?P<{name}>.+?)", 1)
        regex = regex.replace(re.escape("{" + name + "}"), f"(?P={name})")
    return regex


def _load():
    texts, patterns = {}, []
    for english, translated, rule in _entries():
        if not translated:
            continue
        if rule is None or "{count}" not in english:
            texts.setdefault(english, translated)
        # A pattern needs words of its own: "{place}, {detail}" would match anything.
        if "{" in english and len(re.sub(r"\{[a-z_0-9]+\}|[^A-Za-z]", "", english)) >= 2:
            patterns.append((english, re.compile(_pattern(english) + "$"), translated, rule))
    # Longer texts first, so a whole sentence wins over a short one it happens to match.
    patterns.sort(key=lambda p: -len(p[0]))
    return texts, patterns


_TEXTS, _PATTERNS = _load()
_PLURALS = [(english, translated, rule) for english, translated, rule in _entries() if rule and translated]


def _value(value):
    """A value inside a sentence in the page's words: "running" as the page writes a sport in the
    middle of a sentence ("corrida")."""
    translated = words(value)
    if translated == value and value[:1].islower():
        capitalised = words(value[:1].upper() + value[1:])
        if capitalised != value[:1].upper() + value[1:]:
            return capitalised[:1].lower() + capitalised[1:]
    return translated


def _fill(translated, match):
    values = {name: _value(value) for name, value in match.groupdict().items()}
    return re.sub(r"\{([a-z_][a-z0-9_]*)\}", lambda m: values.get(m.group(1), m.group(0)), translated)


def _counts(rule, match):
    """Whether a plural form fits the count the text was matched with."""
    count = match.groupdict().get("count")
    return rule is None or count is None or (rule == "one") == (count.strip() == "1")


def _translations(english):
    """Every way the catalogue says `english` (one English text can be two keys: "{sport} pick-up
    game" and "{privacy} pick-up game"), the likeliest first."""
    found = [_TEXTS[english]] if english in _TEXTS else []
    for _, regex, translated, rule in _PATTERNS:
        match = regex.match(english)
        if match and _counts(rule, match):
            found.append(_fill(translated, match))
    # "Rhea · Not yet replied": parts the page joins with a middle dot, each in the page's words.
    if " · " in english and not found:
        parts = english.split(" · ")
        joined = " · ".join(words(part) for part in parts)
        if joined != english:
            found.append(joined)
    # "0 challenge points": a count the page writes in front of a counted noun.
    counted = re.match(r"^(\d+) (.+)$", english)
    if counted:
        number, noun = counted.groups()
        for key, translated, rule in _PLURALS:
            if key == noun and (rule == "one") == (number == "1"):
                found.append(f"{number} {translated}")
    return found


def words(english):
    """`english` in the language the journeys run in, or as written when the catalogue does not have
    it. Values in a sentence are translated too ("Basketball pick-up game": the sport as well)."""
    if LANGUAGE == "en" or not isinstance(english, str):
        return english
    found = _translations(english)
    return found[0] if found else english


def _regex_of(translated, match):
    """The translation with the values a match found, any other placeholder matching anything."""
    values = {name: _value(value) for name, value in match.groupdict().items()}
    parts = re.split(r"(\{[a-z_][a-z0-9_]*\})", translated)
    return re.compile("".join(
        re.escape(values[part[1:-1]]) if part.startswith("{") and part[1:-1] in values
        else ".+?" if part.startswith("{") else re.escape(part) for part in parts))


def _inside(english):
    """The catalogue sentences `english` is a stretch of, values and all ("was accepted with 4 stars"
    of "Your reply to “{caption}” was accepted with {count} stars."), as patterns of their translations."""
    tokens = english.split()
    if len(tokens) < 2:
        return []
    head = " ".join(tokens[:2])
    found = []
    for key, _, translated, rule in _PATTERNS:
        start = key.find(head)
        if start < 0 and len(tokens[0]) >= 3 and tokens[0].isalpha():
            # The second word may be a value ("Asked Cora Coach." of "Asked {name}. They see…").
            start = key.find(tokens[0] + " {")
        if start < 0:
            # Or it begins with the value the sentence starts with ("Harbour Strikers is ready").
            if not key.startswith("{") or " " + tokens[-1] not in key:
                continue
            start = 0
        ends = {len(key)}
        for index, character in enumerate(key):
            if index > start and character == "}":
                ends.update({index + 1, min(index + 2, len(key))})
        tail = tokens[-1]
        at = key.find(tail, start)
        while at >= 0:
            ends.add(at + len(tail))
            at = key.find(tail, at + 1)
        # The longest stretch first: "You are {role} in this team", not "You are {role}".
        for end in sorted(ends, reverse=True):
            if end <= start:
                continue
            match = re.match(_pattern(key[start:end]) + "$", english)
            if match and _counts(rule, match):
                found.append(_regex_of(translated, match))
                break
    return found


def finders(english):
    """Regular expressions that find `english` on a page in the journeys' language. A journey may look
    for part of a sentence ("Some answers need another look"): in Portuguese that is any sentence of
    the catalogue that holds it, with its placeholders matching anything."""
    whole = words(english)
    # What people wrote (a name, a workout stored in another language) is found as written too.
    found = [re.compile(re.escape(english))]
    if LANGUAGE == "en" or not re.search(r"[A-Za-z]{2}", english):
        return found
    if whole != english:
        found += [re.compile(re.escape(text)) for text in _translations(english)]
    for key, translated in _TEXTS.items():
        if english in key and key != english:
            parts = re.split(r"\{[a-z_][a-z0-9_]*\}", translated)
            found.append(re.compile(".+?".join(re.escape(part) for part in parts)))
    return found + _inside(english)


def found_in(text, english):
    """Whether `english` (or, running in Portuguese, its translation) is in `text`."""
    return any(finder.search(text) for finder in finders(english))


def starts(text, english):
    """Whether `text` starts with `english` or its translation (a button, a link, a label), as a whole
    word: "De" (From) is not the start of "Desporto"."""
    text = text.strip()
    for candidate in (text, text.lower()):
        for finder in finders(english) + [re.compile(re.escape(words(english).lower()))]:
            match = finder.match(candidate)
            if match and (match.end() == len(candidate) or not candidate[match.end()].isalnum()):
                return True
    return False


BROWSER_LANGUAGE = "pt-PT" if LANGUAGE == "pt-PT" else "en-GB"
