#!/usr/bin/env python3
"""The public names of tensor7's umbrella headers, and a check that the reference
manual (docs/) documents each of them.

    scripts/public_names.py                  list the names (name, then where declared)
    scripts/public_names.py --check docs/    exit 1, listing them, if some name does
                                             not appear in docs/*.md

The umbrella headers are include/t7/*.hpp; the headers they include (recursively,
through #include "...") are parsed by a small C++ declaration scanner:

* namespace scopes are tracked; names in namespace t7 and its public sub-namespaces
  (t7::cuda) count, names inside INTERNAL_NAMESPACES (detail, cpu, gpu, iter, ...)
  do not;
* at namespace scope: classes, structs, enums (and their enumerators), aliases,
  concepts, functions, operators and variables;
* in those classes: the public members (functions, operators, nested types, data
  members, enumerators); constructors and destructors are the class itself;
* macros named T7_* that the headers #define and do not #undef again (except
  names ending in '_', the helpers of other macros).

Function-like macros are expanded where they are invoked at namespace scope (the
operators and functions that expr/operators.hpp defines through macros). Of an
#if / #else group only the first branch is read; #include lines are followed in
every branch.

A name is documented when it appears, as a whole word, in a Markdown code span,
a fenced code block or a heading of one of the docs/*.md files. Qualified names
are checked by their last component (Tensor::narrow by `narrow`), except names of
a public sub-namespace, written with it (`cuda::FloatTensor`) or inside a
`namespace t7::cuda { ... }` block, and operators, checked as spelled (`operator+=`).
docs/names-ignore.txt lists names the scanner picks up that are not part of the
API, one per line, each with a reason after a '#'.
"""

import argparse
import re
import sys
from pathlib import Path

# Namespaces (at any depth below t7) whose contents are implementation details.
INTERNAL_NAMESPACES = {
    "detail",   # helpers of every layer
    "cpu",      # the CPU evaluator (eval/cpu)
    "gpu",      # the Thrust evaluator (eval/thrust)
    "iter",     # the loop planner (iter/)
    "op",       # the element-wise functors (expr/functors.hpp)
    "rule",     # how functors type their operands
    "red",      # the reduction descriptors (expr/reducers.hpp)
    "rng",      # the distributions shared with the GPU (math/distributions.hpp)
    "philox",   # the counter-based generator (math/philox.hpp)
    "rt",       # the interface of the tensor7_cuda library (core/device_*.hpp)
    "eig",      # Eigen bindings
    "cublas",   # cuBLAS bindings
    "t7file",   # the .t7 reader and writer
    "npy",      # the .npy parser
    "print",    # the printer's layout
}

# Public namespaces below t7 (their names are checked with the namespace).
PUBLIC_SUBNAMESPACES = {"cuda"}

KEYWORDS_SKIP = {
    "inline", "static", "constexpr", "consteval", "constinit", "explicit", "virtual",
    "extern", "mutable", "thread_local", "volatile", "register", "typename",
}
CLASS_KEYS = {"class", "struct", "union"}
OPERATOR_CHARS = "+-*/%^&|~!=<>,[]()"

# ---------------------------------------------------------------------------------
# Lexing

TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<num>\.?\d(?:[\w.']|[eEpP][+-])*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<punct>::|->\*?|\.\.\.|<<=|>>=|<=>|<<|<=|>=|==|!=|&&|\|\||\+\+|--|[-+*/%^&|!=]=|\[\[|\]\]|[{}()\[\];:,<>.?~!+\-*/%^&|=#])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Tok:
    __slots__ = ("text", "kind", "file", "line")

    def __init__(self, text, kind, file, line):
        self.text, self.kind, self.file, self.line = text, kind, file, line

    def __repr__(self):
        return self.text


def strip_comments(src):
    """Removes // and /* */ comments (keeping newlines and string literals)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * src.count("\n", i, j))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def lex(text, file, first_line):
    toks, line = [], first_line
    for m in TOKEN_RE.finditer(text):
        kind, s = m.lastgroup, m.group()
        if kind == "ws":
            line += s.count("\n")
            continue
        if kind == "punct" and s == "[[":  # keep [[ as one token only for attributes
            toks.append(Tok("[[", kind, file, line))
            continue
        toks.append(Tok(s, kind, file, line))
    return toks


# ---------------------------------------------------------------------------------
# Preprocessing: includes, macros, first branch of conditionals


class Macro:
    def __init__(self, name, params, body, file, line):
        self.name, self.params, self.body, self.file, self.line = name, params, body, file, line


def preprocess(path):
    """Returns (tokens, includes, defined T7_ macros, undefined names) of one header."""
    raw = path.read_text(encoding="utf-8", errors="replace")
    src = strip_comments(raw.replace("\\\r\n", "").replace("\\\n", " "))
    includes, macros_out, undefined = [], [], set()
    tokens = []
    func_macros = {}  # name -> Macro, while defined (file order)
    # branch stack: for each open #if, whether this group already had its first
    # branch (later branches are skipped) and whether we are inside a skipped one
    stack = []

    def skipping():
        return any(s["skip"] for s in stack)

    for lineno, line in enumerate(src.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            d = stripped[1:].strip()
            word = re.match(r"\w*", d).group()
            rest = d[len(word):].strip()
            if word == "include":
                m = re.match(r'"([^"]+)"', rest)
                if m:
                    includes.append(m.group(1))
            elif word in ("if", "ifdef", "ifndef"):
                stack.append({"skip": False})
            elif word in ("elif", "else"):
                if stack:
                    stack[-1]["skip"] = True
            elif word == "endif":
                if stack:
                    stack.pop()
            elif skipping():
                pass
            elif word == "define":
                m = re.match(r"([A-Za-z_]\w*)(\(([^)]*)\))?\s*(.*)", rest, re.DOTALL)
                if m:
                    name, params, body = m.group(1), m.group(3), m.group(4)
                    if name.startswith("T7_") and not name.endswith("_"):
                        macros_out.append((name, lineno))  # NAME_: a helper of another macro
                    undefined.discard(name)
                    if m.group(2) is not None:
                        ps = [p.strip() for p in params.split(",") if p.strip()]
                        func_macros[name] = Macro(name, ps, lex(body, path, lineno), path, lineno)
            elif word == "undef":
                name = rest.split()[0] if rest.split() else ""
                undefined.add(name)
                func_macros.pop(name, None)
            continue
        if skipping():
            continue
        toks = lex(line, path, lineno)
        tokens.extend(expand(toks, func_macros))
    # macros still defined at the end of the file
    defined = [(n, l) for n, l in macros_out if n not in undefined]
    return tokens, includes, defined, undefined


def expand(toks, func_macros):
    """Expands invocations of function-like macros on one line (those the headers use)."""
    if not func_macros:
        return toks
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        m = func_macros.get(t.text) if t.kind == "id" else None
        if m and i + 1 < len(toks) and toks[i + 1].text == "(":
            depth, j, args, cur = 0, i + 1, [], []
            while j < len(toks):
                x = toks[j].text
                if x in "([{":
                    depth += 1
                    if depth > 1:
                        cur.append(toks[j])
                elif x in ")]}":
                    depth -= 1
                    if depth == 0:
                        args.append(cur)
                        break
                    cur.append(toks[j])
                elif x == "," and depth == 1:
                    args.append(cur)
                    cur = []
                else:
                    cur.append(toks[j])
                j += 1
            binding = dict(zip(m.params, args))
            body, k = m.body, 0
            while k < len(body):
                b = body[k]
                if b.text == "#" and k + 1 < len(body) and body[k + 1].text in binding:
                    text = '"' + " ".join(a.text for a in binding[body[k + 1].text]) + '"'
                    out.append(Tok(text, "str", t.file, t.line))
                    k += 2
                    continue
                if b.kind == "id" and b.text in binding:
                    out.extend(Tok(a.text, a.kind, t.file, t.line) for a in binding[b.text])
                else:
                    out.append(Tok(b.text, b.kind, t.file, t.line))
                k += 1
            i = j + 1
            continue
        out.append(t)
        i += 1
    return out


# ---------------------------------------------------------------------------------
# Declarations


def skip_balanced(toks, i, open_, close):
    """Index after the group opened at toks[i] (which is `open_`)."""
    depth = 0
    while i < len(toks):
        if toks[i].text == open_:
            depth += 1
        elif toks[i].text == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def skip_angles(toks, i):
    """Index after the <...> group starting at toks[i] == '<' (parens nest inside)."""
    depth, n = 0, len(toks)
    while i < n:
        x = toks[i].text
        if x == "<":
            depth += 1
        elif x == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif x == ">>":
            depth -= 2
            if depth <= 0:
                return i + 1
        elif x in ("(", "["):
            i = skip_balanced(toks, i, x, ")" if x == "(" else "]")
            continue
        elif x in (";", "{", "}"):
            return i
        i += 1
    return i


def skip_requires_clause(toks, i):
    """toks[i] is 'requires': the index after its constraint (primaries joined by
    && and ||: a parenthesised expression or a qualified name with template arguments)."""
    i += 1
    n = len(toks)
    while i < n:
        while i < n and toks[i].text == "!":
            i += 1
        if i < n and toks[i].text == "(":
            i = skip_balanced(toks, i, "(", ")")
        else:
            if i < n and toks[i].text == "::":
                i += 1
            while i < n and toks[i].kind == "id":
                i += 1
                if i < n and toks[i].text == "<":
                    i = skip_angles(toks, i)
                if i < n and toks[i].text == "::":
                    i += 1
                    continue
                break
        if i < n and toks[i].text in ("&&", "||"):
            i += 1
            continue
        return i
    return i


def more_declarators(stmt):
    """The names after the first of `T a = 1, b = 2, c;` (at top-level commas)."""
    names, i, t = [], 0, stmt
    while i < len(t):
        x = t[i].text
        if x in ("(", "[", "{"):
            i = skip_balanced(t, i, x, {"(": ")", "[": "]", "{": "}"}[x])
            continue
        if x == "<" and i > 0 and t[i - 1].kind == "id":
            i = skip_angles(t, i)
            continue
        if x == "," and i + 1 < len(t) and t[i + 1].kind == "id":
            names.append(t[i + 1].text)
        i += 1
    return names


def strip_prefix(toks):
    """Drops template headers, requires-clauses, attributes and specifiers."""
    i = 0
    while i < len(toks):
        x = toks[i].text
        if x == "template":
            i += 1
            if i < len(toks) and toks[i].text == "<":
                i = skip_angles(toks, i)
        elif x == "requires":
            i = skip_requires_clause(toks, i)
        elif x == "[[":
            while i < len(toks) and toks[i].text != "]]":
                i += 1
            i += 1
        elif x in KEYWORDS_SKIP or re.fullmatch(r"T7_[A-Z0-9_]+", x):
            i += 1
        elif x in ("alignas", "__attribute__", "__declspec"):
            i += 1
            if i < len(toks) and toks[i].text == "(":
                i = skip_balanced(toks, i, "(", ")")
        else:
            break
    return toks[i:]


def operator_name(toks, i):
    """toks[i] is 'operator': (name, index of the parameter list's '(')."""
    j = i + 1
    if j < len(toks) and toks[j].text == "(":
        return "operator()", j + 2
    if j < len(toks) and toks[j].text == "[":
        return "operator[]", j + 2
    parts = []
    while j < len(toks) and toks[j].text != "(":
        if toks[j].text == "<" and parts and toks[j - 1].kind == "id":
            k = skip_angles(toks, j)
            j = k
            continue
        parts.append(toks[j].text)
        j += 1
    if parts and all(c in OPERATOR_CHARS for p in parts for c in p):
        return "operator" + "".join(parts), j
    return "operator " + " ".join(parts), j  # a conversion: operator float


def declared_name(toks, class_name=None):
    """The name a declaration (tokens up to ';' or '{') declares, or None.
    Returns (name, kind) with kind in function, variable, alias, class, enum,
    concept, operator."""
    t = strip_prefix(toks)
    if not t:
        return None
    if len(t) >= 2 and t[-2].text == "=" and t[-1].text == "delete":
        return None
    x = t[0].text
    if x in ("static_assert", "namespace", "friend", "typedef", "public", "private",
             "protected", "return", "case", "default"):
        if x == "friend":
            rest = strip_prefix(t[1:])
            if rest and rest[0].text in CLASS_KEYS:
                return None
            got = declared_name(rest, class_name)
            if got and got[1] == "operator":
                return got
            return None
        if x == "typedef":
            ids = [a.text for a in t if a.kind == "id"]
            return (ids[-1], "alias") if ids else None
        return None
    if x == "using":
        if len(t) > 2 and t[1].text == "namespace":
            return None
        if len(t) > 2 and t[1].kind == "id" and t[2].text == "=":
            return t[1].text, "alias"
        return None  # a using-declaration
    if x == "concept":
        return (t[1].text, "concept") if len(t) > 1 else None
    if x in CLASS_KEYS or x == "enum":
        j = 1
        if x == "enum" and j < len(t) and t[j].text in ("class", "struct"):
            j += 1
        while j < len(t) and (t[j].text == "[[" or t[j].text in ("alignas",)):
            j = skip_balanced(t, j, "[[", "]]") if t[j].text == "[[" else j + 1
        if j < len(t) and t[j].kind == "id":
            # `struct X f();` declares a function returning X: only a head counts
            after = t[j + 1].text if j + 1 < len(t) else ""
            if after in ("", ":", "final", "<") or (x == "enum" and after == ":"):
                if after == "<":
                    return t[j].text, "specialization"
                return t[j].text, "enum" if x == "enum" else "class"
            if after == "(" or (t[j + 1].kind == "id" if j + 1 < len(t) else False):
                t = t[j:]  # elaborated type in a declaration: fall through
            else:
                return t[j].text, "enum" if x == "enum" else "class"
        else:
            return None
    # a function (first '(' at depth 0 outside <...>) or a variable
    i, prev = 0, None
    while i < len(t):
        a = t[i]
        if a.text == "operator":
            name, _ = operator_name(t, i)
            if prev is not None and prev.text == "::":
                return None  # an out-of-class definition of a member operator
            return name, "operator"
        if a.text in ("decltype", "noexcept", "sizeof", "alignof", "__attribute__"):
            i += 1
            if i < len(t) and t[i].text == "(":
                i = skip_balanced(t, i, "(", ")")
            prev = None
            continue
        if a.text == "<" and prev is not None and (prev.kind == "id" or prev.text == ">"):
            i = skip_angles(t, i)
            prev = t[i - 1]
            continue
        if a.text == "(":
            if prev is None or prev.kind != "id":
                return None
            if i >= 2 and t[i - 2].text in ("::", "~"):
                return None  # a member defined out of class, or a destructor
            if class_name is not None and prev.text == class_name:
                return None  # a constructor
            return prev.text, "function"
        if a.text in ("=", "{", ":") and prev is not None and prev.kind == "id":
            if i >= 2 and t[i - 2].text == "::":
                return None  # a static member defined out of class
            return prev.text, "variable"
        prev = a
        i += 1
    if prev is not None and prev.kind == "id":
        if len(t) >= 2 and t[-2].text == "::":
            return None
        return prev.text, "variable"
    return None


class Scope:
    def __init__(self, kind, name, public, access="public", qual=""):
        self.kind, self.name, self.public, self.access, self.qual = kind, name, public, access, qual


def scan(tokens, record):
    """Walks one header's tokens; calls record(qualified name, kind, token)."""
    stack = [Scope("file", "", False)]
    i, n = 0, len(tokens)
    stmt = []

    def current():
        return stack[-1]

    def ns_public(names):
        return bool(names) and names[0] == "t7" and not any(
            s in INTERNAL_NAMESPACES or s == "" for s in names[1:])

    def collecting():
        s = current()
        if s.kind == "namespace":
            return s.public
        if s.kind == "class":
            return s.public and s.access == "public"
        return False

    def emit(decl, tok):
        if not decl or not collecting():
            return
        name, kind = decl
        if kind == "specialization":
            return
        s = current()
        record(s.qual + name, kind, tok)

    while i < n:
        tk = tokens[i]
        x = tk.text
        s = current()
        if s.kind == "enum":
            # enumerators: first identifier of each comma-separated item
            j = i
            item_start = True
            while j < n and tokens[j].text != "}":
                if item_start and tokens[j].kind == "id":
                    if s.public:
                        record(s.qual + tokens[j].text, "enumerator", tokens[j])
                    item_start = False
                elif tokens[j].text == ",":
                    item_start = True
                elif tokens[j].text in ("(", "{"):
                    j = skip_balanced(tokens, j, tokens[j].text, ")" if tokens[j].text == "(" else "}")
                    continue
                j += 1
            stack.pop()
            i = j + 1
            # `};`
            continue
        if not stmt and s.kind == "class" and x in ("public", "private", "protected") \
                and i + 1 < n and tokens[i + 1].text == ":":
            s.access = x
            i += 2
            continue
        if x == "}":
            if len(stack) > 1:
                stack.pop()
            stmt = []
            i += 1
            continue
        if x == ";":
            decl = declared_name(stmt, s.name if s.kind == "class" else None)
            if stmt and stmt[0].text != "namespace":
                emit(decl, stmt[0])
                if decl and decl[1] == "variable":
                    for extra in more_declarators(stmt):
                        emit((extra, "variable"), stmt[0])
            stmt = []
            i += 1
            continue
        if x == "(" or x == "[":
            j = skip_balanced(tokens, i, x, ")" if x == "(" else "]")
            stmt.extend(tokens[i:j])
            i = j
            continue
        if x == "{":
            head = strip_prefix(stmt)
            first = head[0].text if head else ""
            # the braces of a concept's requires-expression belong to the statement
            if first == "concept" or (stmt and stmt[-1].text == "requires"):
                j = skip_balanced(tokens, i, "{", "}")
                stmt.extend(tokens[i:j])
                i = j
                continue
            if first == "namespace":
                names = [a.text for a in head[1:] if a.kind == "id"]
                outer = [sc for sc in stack if sc.kind == "namespace"]
                full = (outer[-1].name.split("::") if outer else []) + (names or [""])
                public = ns_public(full)
                qual = "::".join(full[1:]) + "::" if public and len(full) > 1 else ""
                stack.append(Scope("namespace", "::".join(full), public, qual=qual))
                stmt = []
                i += 1
                continue
            if first == "extern" and len(head) > 1 and head[1].kind == "str":
                stack.append(Scope("namespace", s.name, s.public, qual=s.qual))
                stmt = []
                i += 1
                continue
            decl = declared_name(stmt, s.name if s.kind == "class" else None)
            if decl and decl[1] in ("class", "specialization", "enum"):
                emit(decl, stmt[0])
                name = decl[0]
                public = collecting() and decl[1] != "specialization"
                kind = "enum" if decl[1] == "enum" else "class"
                access = "private" if first == "class" else "public"
                stack.append(Scope(kind, name, public, access=access, qual=s.qual + name + "::"))
                stmt = []
                i += 1
                continue
            # a function body, a braced initialiser (`T x{...};`) or a constructor's
            # braced member initialiser (`: a_{x}, b_{y} {`): skip the braces
            if decl:
                emit(decl, stmt[0])
                if decl[1] == "variable":
                    for extra in more_declarators(stmt):
                        emit((extra, "variable"), stmt[0])
            i = skip_balanced(tokens, i, "{", "}")
            if decl is None and i < n and tokens[i].text == ",":
                continue  # more member initialisers: the statement goes on
            stmt = []
            if i < n and tokens[i].text == ";":
                i += 1
            continue
        stmt.append(tk)
        i += 1
    if len(stack) != 1 and tokens:
        print(f"warning: {tokens[0].file}: {len(stack) - 1} scope(s) still open at the end "
              f"(the scanner lost track of the braces)", file=sys.stderr)


# ---------------------------------------------------------------------------------
# The names of the umbrella headers


def collect(root):
    inc = root / "include" / "t7"
    umbrellas = sorted(inc.glob("*.hpp"))
    seen, order = set(), []

    def visit(p):
        p = p.resolve()
        if p in seen or not p.exists():
            return
        seen.add(p)
        order.append(p)
        text = p.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            visit(p.parent / m.group(1))

    for u in umbrellas:
        visit(u)

    names = {}  # name -> (kind, "file:line")

    def record(name, kind, tok):
        if name.split("::")[-1].startswith("_") or (name.endswith("_") and kind == "variable"):
            return  # reserved names, and data members named like private ones (size_)
        where = f"{Path(tok.file).resolve().relative_to(root.resolve())}:{tok.line}"
        names.setdefault(name, (kind, where))

    for p in order:
        if not str(p).startswith(str(inc.resolve())):
            continue
        toks, _, macros, _ = preprocess(p)
        scan(toks, record)
        for m, line in macros:
            rel = p.relative_to(root.resolve())
            names.setdefault(m, ("macro", f"{rel}:{line}"))
    return names, order


# ---------------------------------------------------------------------------------
# The manual


# Pages of docs/ that are not the reference manual: a name they mention is not
# documented by them (perf-history.md: the benchmarks' diary).
NOT_THE_MANUAL = {"perf-history.md"}


def doc_chunks(docs):
    """Code spans, fenced blocks and headings of every docs/*.md (and below)."""
    chunks = []
    for md in sorted(Path(docs).rglob("*.md")):
        if md.name in NOT_THE_MANUAL:
            continue
        text = md.read_text(encoding="utf-8", errors="replace")

        def fence(m):
            chunks.append(m.group(2))
            return "\n"
        text = re.sub(r"(^|\n)(?:```|~~~)[^\n]*\n(.*?)\n(?:```|~~~)[^\n]*(?=\n|$)", fence,
                      text, flags=re.S)
        for line in text.split("\n"):
            if re.match(r"\s{0,3}#{1,6}\s", line):
                chunks.append(line)
        for m in re.finditer(r"(`+)(.+?)\1", text, re.S):
            chunks.append(m.group(2))
    return chunks


class Manual:
    """What docs/ documents: the words of its code and headings."""

    def __init__(self, docs):
        chunks = doc_chunks(docs)
        self.text = "\n".join(chunks)
        self.words = set(re.findall(r"[A-Za-z_]\w*", self.text))
        # the words of chunks written inside a sub-namespace: `namespace t7::cuda { ... }`
        self.ns_words = {}
        for c in chunks:
            for ns in re.findall(r"\bnamespace\s+(?:t7::)?(\w+)", c):
                self.ns_words.setdefault(ns, set()).update(re.findall(r"[A-Za-z_]\w*", c))

    def documents(self, name, kind):
        text, last = self.text, name.split("::")[-1]
        if last.startswith("operator"):
            sym = last[len("operator"):].strip()
            if sym and sym[0].isalpha():  # a conversion operator
                return re.search(r"\boperator\s+" + re.escape(sym.split()[0]) + r"\b",
                                 text) is not None
            pat = r"\boperator\s*" + r"\s*".join(re.escape(c) for c in sym)
            if sym not in ("()", "[]"):
                pat += r"(?![-+*/%^&|~!=<>])"
            return re.search(pat, text) is not None
        parts = name.split("::")
        # a name of a public sub-namespace (cuda::FloatTensor): written with its
        # namespace, or inside a `namespace t7::cuda { ... }` block
        if kind != "macro" and len(parts) == 2 and parts[0] in PUBLIC_SUBNAMESPACES:
            return (re.search(r"\b" + re.escape(name) + r"\b", text) is not None
                    or last in self.ns_words.get(parts[0], set()))
        return last in self.words


def read_ignore(path):
    ignored, problems = {}, []
    if not path.exists():
        return ignored, problems
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        name, _, reason = s.partition("#")
        name, reason = name.strip(), reason.strip()
        if not reason:
            problems.append(f"{path}:{n}: '{name}' needs a reason after '#'")
        ignored[name] = reason
    return ignored, problems


def main():
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=here, help="the repository (default: this one)")
    ap.add_argument("--check", metavar="DOCS", type=Path,
                    help="check that every name appears in DOCS/*.md")
    ap.add_argument("--ignore", type=Path, help="default: DOCS/names-ignore.txt")
    ap.add_argument("--files", action="store_true", help="list the headers read")
    args = ap.parse_args()

    names, files = collect(args.root)
    if args.files:
        for f in files:
            print(f.relative_to(args.root.resolve()))
        return 0
    if not args.check:
        for name in sorted(names, key=str.lower):
            kind, where = names[name]
            print(f"{name:40} {kind:13} {where}")
        print(f"{len(names)} public names in {len(files)} headers", file=sys.stderr)
        return 0

    ignore_path = args.ignore or (args.check / "names-ignore.txt")
    ignored, problems = read_ignore(ignore_path)
    manual = Manual(args.check)
    missing = []
    checked = 0
    for name in sorted(names, key=str.lower):
        if name in ignored:
            continue
        checked += 1
        kind, where = names[name]
        if not manual.documents(name, kind):
            missing.append((name, kind, where))
    stale = sorted(n for n in ignored if n not in names)
    for p in problems:
        print(p)
    for n in stale:
        print(f"note: {ignore_path.name} lists '{n}', which the headers no longer declare")
    if missing:
        print(f"{len(missing)} of {checked} public names are not in {args.check}/*.md "
              f"(as a word in a code span, code block or heading):")
        for name, kind, where in missing:
            print(f"  {name:40} {kind:13} {where}")
    print(f"checked {checked} public names of {len(files)} headers against {args.check} "
          f"({len(ignored)} ignored as internal)")
    return 1 if missing or problems else 0


if __name__ == "__main__":
    sys.exit(main())
