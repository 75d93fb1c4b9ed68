#!/usr/bin/env python3
"""No function over 60 lines in a controller: what `make lint` runs.

    python3 scripts/function_length.py [--max N] [FILE ...]

Measures every `func` and `init` body in Sources/App/**/*Controller.swift and
Sources/App/Core/AppConfig.swift (or the FILEs given), from the line that declares it to the line
of its closing brace, and prints `file:line: name is N lines` for each one longer than the limit;
it exits 1 when there is any. A controller's long function is a page builder (one function that
fills the page's typed context) and small readers (one query each) waiting to be told apart.

How it reads the code: comments and the text of string literals are blanked (newlines kept), then
braces are matched. A declaration without a body (a protocol's requirement) is skipped.
"""
import glob, os, re, sys

LIMIT = 60

def blank(src):
    """The source with comments and string literal contents replaced by spaces, newlines kept."""
    out, i, n = [], 0, len(src)

    def keep_lines(text):
        return "".join("\n" if c == "\n" else " " for c in text)

    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(keep_lines(src[i:j]))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(keep_lines(src[i:j]))
            i = j
        elif src[i] == '"' or (src[i] == "#" and re.match(r'#+"', src[i:])):
            hashes = 0
            while src[i + hashes] == "#":
                hashes += 1
            j = i + hashes
            multi = src.startswith('"""', j)
            close = ('"""' if multi else '"') + "#" * hashes
            j += 3 if multi else 1
            escape = "\\" + "#" * hashes
            while j < n and not src.startswith(close, j):
                if src.startswith(escape + "(", j):
                    # Interpolated code: skip it whole, strings inside included.
                    j += len(escape) + 1
                    depth = 1
                    while j < n and depth:
                        if src[j] == "(":
                            depth += 1
                        elif src[j] == ")":
                            depth -= 1
                        elif src[j] == '"':
                            k = src.find('"', j + 1)
                            j = n if k < 0 else k
                        j += 1
                elif src.startswith(escape, j):
                    j += len(escape) + 1
                else:
                    j += 1
            j += len(close)
            out.append(keep_lines(src[i:j]))
            i = j
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


DECLARATION = re.compile(r"\b(func\s+([^\s(<]+)|init[?!]?)\s*[(<]")
NOT_A_BODY = re.compile(r"\b(func|var|let|case|init)\b")


def functions(path):
    """(line, name, length) of every function or initialiser with a body in the file."""
    code = blank(open(path, encoding="utf-8").read())
    found = []
    for match in DECLARATION.finditer(code):
        # The body is the first brace outside the parameter list, generics and default values.
        depth, i = 0, match.end() - 1
        while i < len(code):
            c = code[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth == 0:
                break
            elif c == "}" and depth == 0:
                i = len(code)
                break
            i += 1
        if i >= len(code) or NOT_A_BODY.search(code, match.end(), i):
            continue
        start, depth = i, 0
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        first = code.count("\n", 0, match.start()) + 1
        last = code.count("\n", 0, i) + 1
        found.append((first, match.group(2) or "init", last - first + 1))
    return found


def main(argv):
    limit = LIMIT
    if "--max" in argv:
        at = argv.index("--max")
        limit = int(argv[at + 1])
        del argv[at : at + 2]
    files = argv or sorted(glob.glob("Sources/App/**/*Controller.swift", recursive=True)) + ["Sources/App/Core/AppConfig.swift"]
    if not files:
        print("function_length.py: no files to measure", file=sys.stderr)
        return 2
    long = [(path, line, name, length) for path in files for line, name, length in functions(path) if length > limit]
    for path, line, name, length in long:
        print(f"{path}:{line}: {name} is {length} lines (at most {limit}): split it into a page builder and small readers")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
