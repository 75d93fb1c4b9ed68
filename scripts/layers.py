#!/usr/bin/env python3
"""Which feature folders of Sources/App use which, and whether they keep to the layers.

    python3 scripts/layers.py --check      # what `make lint` runs: fails on an edge against LAYERS
    python3 scripts/layers.py [-v] [TREE ...]   # the report: edges, cycles, controller helpers

A TREE is a folder holding Sources/App (default: the working tree). To compare with an older
commit: `git archive COMMIT Sources | tar -x -C /tmp/old` and pass /tmp/old.

How it reads the code (heuristics, good enough to keep the layering honest):
* A folder declares every name matched by `(modifiers) struct|enum|class|protocol|actor|typealias
  Name`. A name declared in more than one folder is ignored. Only names declared at column 0 are
  attributed (nested names are reached through their outer type); --nested attributes nested too.
* `extension SiteURL { static func|let|var X` in folder F makes `SiteURL.X` belong to F; uses
  counted are `SiteURL.X` and the implicit `.X` of the same shape, unless another type has a static
  member or enum case of that name (then only `SiteURL.X` counts).
* Comments and string literals are stripped; code inside string interpolation is kept.
* configure.swift and routes.swift (the composition root) are skipped. Edges into Core are allowed.
"""
import os, re, sys
from collections import defaultdict

# A feature may use only features on a lower layer; Core is the floor everyone may use, and it
# uses no feature. A new feature folder must be given a layer here (docs/ARCHITECTURE.md).
LAYERS = {
    "Core": 0,
    "Accounts": 1,
    "Notifications": 2,
    "Teams": 3, "Workouts": 3,
    "Challenges": 4, "Learn": 4, "Games": 4, "Coaching": 4, "Ingest": 4,
    "Community": 5, "Places": 5, "Admin": 5, "Live": 5,
    "Home": 6, "Messages": 6,
}
FOLDERS = list(LAYERS)
NESTED = "--nested" in sys.argv
args = [a for a in sys.argv[1:] if not a.startswith("-")]
TREES = args or ["."]


def strip(src):
    """Remove comments and string literal text; keep code inside \\( ... ) interpolations."""
    out, i, n = [], 0, len(src)

    def skip_string(i, hashes, multi):
        # i points just after the opening quote(s); returns index after closing delimiter.
        close = ('"""' if multi else '"') + "#" * hashes
        esc = "\\" + "#" * hashes
        while i < n:
            if src.startswith(esc + "(", i):
                i += len(esc) + 1
                depth = 1
                start = i
                # scan the interpolated code, honouring nested strings and parens
                while i < n and depth:
                    c = src[i]
                    if c == '"' or (c == "#" and src.startswith('#"', i)):
                        h = 0
                        while src.startswith("#", i + h):
                            h += 1
                        j = i + h
                        m = src.startswith('"""', j)
                        out.append(" ")
                        i = skip_string(j + (3 if m else 1), h, m)
                        continue
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                        if depth == 0:
                            i += 1
                            break
                    out.append(c)
                    i += 1
                out.append(" ")
                continue
            if src.startswith(esc, i):
                i += len(esc) + 1
                continue
            if src.startswith(close, i):
                return i + len(close)
            if src[i] == "\n":
                out.append("\n")
            i += 1
        return i

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth += 1; i += 2
                elif src.startswith("*/", i):
                    depth -= 1; i += 2
                else:
                    if src[i] == "\n":
                        out.append("\n")
                    i += 1
            continue
        if c == '"' or (c == "#" and re.match(r'#+"', src[i:i + 8])):
            h = 0
            while src.startswith("#", i + h):
                h += 1
            j = i + h
            m = src.startswith('"""', j)
            out.append('""')
            i = skip_string(j + (3 if m else 1), h, m)
            continue
        out.append(c)
        i += 1
    return "".join(out)


DECL = re.compile(r"^([ \t]*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|final|fileprivate|private|indirect|nonisolated)\s+)*"
                  r"(struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
# static members and enum cases, split by how an implicit `.x` / `.x(` would resolve to them
STATIC_CALL = re.compile(r"\b(?:static|class)\s+(?:(?:private|fileprivate|internal|public|nonisolated|final)\s+)*func\s+`?([a-z_]\w*)")
STATIC_PLAIN = re.compile(r"\b(?:static|class)\s+(?:(?:private|fileprivate|internal|public|nonisolated|final)\s+)*(?:var|let)\s+`?([a-z_]\w*)")
CASE = re.compile(r"(?:^|[{;])[ \t]*(?:indirect\s+)?case\s+([`a-z_][^:\n]*)$", re.M)   # enum case lines (no ':' → not a switch case)


def split_top(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([": depth += 1
        elif ch in ")]": depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur); cur = ""
        else:
            cur += ch
    return parts + [cur]
IDENT = re.compile(r"[A-Za-z_]\w*")


def load(tree):
    root = os.path.join(tree, "Sources/App")
    files = {}
    for folder in FOLDERS:
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        for dp, _, fns in os.walk(d):
            for fn in sorted(fns):
                if fn.endswith(".swift"):
                    p = os.path.join(dp, fn)
                    raw = open(p, encoding="utf-8").read()
                    files[os.path.relpath(p, root)] = (folder, strip(raw))
    return files


def site_url_members(code):
    """(name, is_func) for members declared inside `extension SiteURL { ... }` blocks."""
    names = []
    for m in re.finditer(r"^extension\s+SiteURL\b[^{]*\{", code, re.M):
        i, depth = m.end(), 1
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        body = code[m.end():i]
        names += [(x, k == "func") for k, x in re.findall(r"static\s+(func|let|var)\s+([a-z_]\w*)", body)]
    return names


def analyse(tree):
    files = load(tree)
    declared = defaultdict(set)           # type name -> folders (any indentation)
    top = defaultdict(set)                # type name -> folders (column 0)
    siteurl = defaultdict(set)            # SiteURL member -> folders
    su_func = {}                          # SiteURL member -> is a func
    other_call = defaultdict(int)         # `.x(` could also mean: static func x / case x(...)
    other_plain = defaultdict(int)        # `.x`  could also mean: static let/var x / case x
    for path, (folder, code) in files.items():
        for m in DECL.finditer(code):
            declared[m.group(3)].add(folder)
            if m.group(1) == "":
                top[m.group(3)].add(folder)
        su = site_url_members(code)
        for x, f in su:
            siteurl[x].add(folder); su_func[x] = f
            (other_call if f else other_plain)[x] -= 1      # do not count SiteURL's own declaration
        is_siteurl_type = folder == "Core" and re.search(r"^struct SiteURL\b", code, re.M)
        for x in STATIC_CALL.findall(code):
            other_call[x] += 1
        for x in STATIC_PLAIN.findall(code):
            other_plain[x] += 1
        if is_siteurl_type:
            for k, x in re.findall(r"static\s+(func|let|var)\s+([a-z_]\w*)", code):
                siteurl[x].add("Core"); su_func[x] = k == "func"
                (other_call if k == "func" else other_plain)[x] -= 1
        for m in CASE.finditer(code):
            for part in split_top(m.group(1)):
                mm = re.match(r"\s*`?([a-z_]\w*)`?\s*(\()?", part)
                if mm and mm.group(1) not in ("let", "var", "is", "_"):
                    (other_call if mm.group(2) else other_plain)[mm.group(1)] += 1
    owner = {}
    for name, fs in declared.items():
        if len(fs) == 1 and (NESTED or name in top):
            owner[name] = next(iter(fs))
    su_owner = {x: next(iter(fs)) for x, fs in siteurl.items() if len(fs) == 1}
    ambiguous = {x for x in su_owner if (other_call if su_func[x] else other_plain).get(x, 0) > 0}

    edges = defaultdict(lambda: defaultdict(int))   # (A,B) -> name -> count
    where = defaultdict(list)                       # (A,B,name) -> [file:line]
    skipped = []                                    # implicit .X of an ambiguous SiteURL member
    for path, (folder, code) in files.items():
        lines = code.split("\n")
        for ln, line in enumerate(lines, 1):
            for m in IDENT.finditer(line):
                tok = m.group(0)
                if line[:m.start()].rstrip().endswith("."):
                    continue          # Vapor.Route, Outer.Inner: not this top-level name
                tgt = owner.get(tok)
                if tgt and tgt != folder:
                    edges[(folder, tgt)][tok] += 1
                    where[(folder, tgt, tok)].append(f"{path}:{ln}")
            for m in re.finditer(r"(SiteURL\s*\.|(?<![\w)\]?!\"])\.)\s*([a-z_]\w*)\b(\s*\()?", line):
                x = m.group(2)
                if x not in su_owner:
                    continue
                explicit = m.group(1).startswith("SiteURL")
                if not explicit:
                    # implicit member `.x` / `.x(`: must have SiteURL's shape and not be ambiguous
                    if bool(m.group(3)) != su_func[x]:
                        continue
                    if x in ambiguous:
                        if su_owner[x] not in (folder, "Core"):
                            skipped.append(f"{path}:{ln} .{x}")
                        continue
                tgt = su_owner[x]
                if tgt != folder:
                    key = f"SiteURL.{x}"
                    edges[(folder, tgt)][key] += 1
                    where[(folder, tgt, key)].append(f"{path}:{ln}" + ("" if explicit else " (implicit)"))
    analyse.skipped = skipped
    return files, owner, su_owner, ambiguous, edges, where


def sccs(nodes, adj):
    index, low, stack, on, out, c = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = c[0]; c[0] += 1
        stack.append(v); on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))
    for v in nodes:
        if v not in index:
            visit(v)
    return [s for s in out if len(s) > 1]


def controllers(files, owner):
    """Cross-folder references to *Controller types, and same-folder cross-file static helper calls."""
    cross, helpers = [], []
    ctrl_file = {}
    for path, (folder, code) in files.items():
        for m in DECL.finditer(code):
            if m.group(3).endswith("Controller") and m.group(1) == "":
                ctrl_file[m.group(3)] = path
    for path, (folder, code) in files.items():
        for ln, line in enumerate(code.split("\n"), 1):
            for m in re.finditer(r"\b([A-Z]\w*Controller)\b", line):
                name = m.group(1)
                o = owner.get(name)
                if o and o != folder:
                    cross.append(f"{path}:{ln} {name}")
            for m in re.finditer(r"\b([A-Z]\w*Controller)\s*\.\s*([a-z_]\w*)\s*(\()?", line):
                name, member, call = m.groups()
                o = owner.get(name)
                if o == folder and ctrl_file.get(name) != path:
                    helpers.append(f"{path}:{ln} {name}.{member}{'(' if call else ''}")
    return cross, helpers


def report(tree):
    files, owner, su_owner, ambiguous, edges, where = analyse(tree)
    print(f"===== {tree}  ({len(files)} files, {len(owner)} attributed type names, "
          f"{len(su_owner)} SiteURL members{'; nested names on' if NESTED else ''})")
    if ambiguous:
        print("  SiteURL members counted only as SiteURL.X (name also an enum case/static elsewhere):",
              ", ".join(sorted(ambiguous)))
        if analyse.skipped:
            print("  implicit uses of those left uncounted (check by hand):", "; ".join(analyse.skipped))
    adj = defaultdict(set)
    for (a, b), names in sorted(edges.items()):
        if b == "Core":
            continue
        n = sum(names.values())
        tag = "  [CORE -> FEATURE]" if a == "Core" else ""
        lst = ", ".join(f"{k}" + (f"×{v}" if v > 1 else "") for k, v in sorted(names.items(), key=lambda kv: (-kv[1], kv[0])))
        print(f"  {a} -> {b} ({n} refs: {lst}){tag}")
        adj[a].add(b)
    nodes = [f for f in FOLDERS if any(v == f for v, _ in files.values())]
    print("  SCCs:", sccs(nodes, adj) or "none")
    two = sorted({tuple(sorted((a, b))) for a in adj for b in adj[a] if a in adj.get(b, ())})
    for a, b in two:
        ab = edges[(a, b)]; ba = edges[(b, a)]
        print(f"  2-cycle {a} <-> {b}:  {a}->{b} {sum(ab.values())} [{', '.join(sorted(ab, key=lambda k: -ab[k])[:4])}]"
              f" | {b}->{a} {sum(ba.values())} [{', '.join(sorted(ba, key=lambda k: -ba[k])[:4])}]")
    cross, helpers = controllers(files, owner)
    print(f"  cross-feature *Controller references: {len(cross)}")
    for c in cross:
        print("    " + c)
    print(f"  same-folder cross-file XController.member uses: {len(helpers)}")
    for h in helpers:
        print("    " + h)
    if "-v" in sys.argv or "--where" in sys.argv:
        for (a, b, name), locs in sorted(where.items()):
            if b != "Core":
                print(f"    {a}->{b} {name}: {', '.join(locs[:6])}{' …' if len(locs) > 6 else ''}")
    return edges


def check(tree):
    """Exit 1 with a list of every edge that goes against LAYERS."""
    app = os.path.join(tree, "Sources/App")
    unknown = sorted(d for d in os.listdir(app) if os.path.isdir(os.path.join(app, d)) and d not in LAYERS)
    problems = [f"Sources/App/{d} has no layer: add it to LAYERS in scripts/layers.py" for d in unknown]
    files, owner, su_owner, ambiguous, edges, where = analyse(tree)
    for (a, b), names in sorted(edges.items()):
        if b == "Core" or LAYERS[b] < LAYERS[a] and a != "Core":
            continue
        for name in sorted(names):
            places = ", ".join(where[(a, b, name)][:3])
            problems.append(f"{a} (layer {LAYERS[a]}) uses {b}'s {name} (layer {LAYERS[b]}): {places}")
    cross, helpers = controllers(files, owner)
    problems += [f"another feature's controller: {c}" for c in cross]
    problems += [f"a controller lending a helper (give it a type of its own): {h}" for h in helpers]
    if problems:
        print("Layering (docs/ARCHITECTURE.md, \"Dependencies point one way\"):")
        print("\n".join("  " + p for p in problems))
        sys.exit(1)
    print(f"layers: {len(files)} files keep to the layers")


if __name__ == "__main__":
    if "--check" in sys.argv:
        check(TREES[0])
        sys.exit(0)
    for t in TREES:
        report(t)
