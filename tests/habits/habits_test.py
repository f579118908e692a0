#!/usr/bin/env python3
"""The habits of CONTRIBUTING.md, checked on the source tree: no include cycle between ui/ folders,
no .cpp over 600 lines in ui/ or over 800 in core/, no function over 100 lines in core/, ui/, app/
and plugins/. Each fault is named with its file and line, what breaks the habit and the limit.

Usage: habits_test.py [--limits FUNCTION,UI_FILE,CORE_FILE] [--expect FILE] SOURCE_DIR
--limits replaces the limits (the self-test's small fixture tree uses small ones); --expect
compares the report with FILE and succeeds only when they are the same.
"""
import argparse
import os
import re
import sys
from collections import deque

SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")
FUNCTION_FOLDERS = ("core", "ui", "app", "plugins")
# A .cpp whose first line says it is generated holds data, not code (CMake writes the built-in
# rule sets and devices from templates that open so); its length is the data's.
GENERATED = re.compile(r"^\s*//\s*Generated\b")


def source_files(root, folder, suffixes=SOURCE_SUFFIXES):
    top = os.path.join(root, folder)
    for directory, subdirs, names in os.walk(top):
        subdirs.sort()
        for name in sorted(names):
            if name.endswith(suffixes):
                path = os.path.join(directory, name)
                yield os.path.relpath(path, root).replace(os.sep, "/"), path


# ---- Tokens: C++ without comments, string and character literals (raw strings too) and
# preprocessor lines; each token with its line.

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"\.?[0-9](?:[0-9A-Za-z_.']|[eEpP][+-])*")
RAW_PREFIXES = ("R", "LR", "uR", "UR", "u8R")
PUNCTUATORS = ("::", "->", "&&", "||", "<<=", ">>=", "==", "!=", "<=", ">=", "+=", "-=", "*=",
               "/=", "%=", "&=", "|=", "^=", "++", "--", "...")


def tokens(text):
    out = []
    i, line, n = 0, 1, len(text)
    at_line_start = True
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if ch in " \t\r\f\v":
            i += 1
            continue
        if ch == "#" and at_line_start:  # a directive, with its continuation lines
            while i < n and text[i] != "\n":
                if text.startswith("\\\n", i):
                    line += 1
                    i += 2
                    continue
                if text.startswith("/*", i):  # a comment may run past the directive's line
                    end = text.find("*/", i + 2)
                    end = n if end < 0 else end + 2
                    line += text.count("\n", i, end)
                    i = end
                    continue
                if text.startswith("//", i):
                    while i < n and text[i] != "\n":
                        i += 1
                    break
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        match = IDENTIFIER.match(text, i)
        if match:
            word = match.group()
            end = match.end()
            if word in RAW_PREFIXES and text.startswith('"', end):
                open_paren = text.find("(", end)
                delimiter = ")" + text[end + 1:open_paren] + '"'
                close = text.find(delimiter, open_paren)
                close = n if close < 0 else close + len(delimiter)
                out.append(('""', line))
                line += text.count("\n", i, close)
                i = close
                continue
            if text.startswith('"', end) or text.startswith("'", end):  # u8"..." L'x'
                i = end
                continue
            out.append((word, line))
            i = end
            continue
        if ch == '"' or ch == "'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(('""' if ch == '"' else "''", line))
            i = j + 1
            continue
        match = NUMBER.match(text, i)
        if match:
            out.append((match.group(), line))
            i = match.end()
            continue
        for p in PUNCTUATORS:
            if text.startswith(p, i):
                out.append((p, line))
                i += len(p)
                break
        else:
            out.append((ch, line))
            i += 1
    return out


# ---- Functions: every body at namespace or class scope, from the first line of its declaration
# to its closing brace; what is inside (lambdas, local classes, nested blocks) is part of it.

ACCESS = {"public", "private", "protected", "slots", "signals", "Q_SLOTS", "Q_SIGNALS"}
QUALIFIERS = {"const", "volatile", "&", "&&", "noexcept", "override", "final", "mutable",
              "throw", "try"}
CLASS_KEYS = {"class", "struct", "union", "enum"}


def split_head(head):
    """The head of a '{' at namespace or class scope: what opens there. Returns (kind, name) with
    kind one of namespace, class, function, member_init (a brace of a constructor's initializer
    list, before the body) and block (an initializer or anything else)."""
    words = without_qt_macros([t for t, _ in head])
    if "namespace" in words or (words[:1] == ["extern"] and words[1:2] == ['""']):
        return "namespace", None
    paren = angle = 0
    first_paren = None
    equals = None
    for k, word in enumerate(words):
        if word == "operator":  # the operator's own symbols are part of its name
            j = k + 1
            if words[j:j + 2] == ["(", ")"]:
                j += 2
            while j < len(words) and words[j] != "(":
                j += 1
            first_paren = j if j < len(words) else None
            break
        if paren == 0 and angle == 0 and word in CLASS_KEYS:
            names = [w for w in words[k + 1:] if IDENTIFIER.fullmatch(w) and w not in CLASS_KEYS]
            return "class", names[0] if names else None
        if word == "(":
            if paren == 0 and angle == 0 and first_paren is None:
                first_paren = k
                break
            paren += 1
        elif word == ")":
            paren -= 1
        elif paren == 0 and word == "<" and k > 0 and IDENTIFIER.fullmatch(words[k - 1]):
            angle += 1
        elif paren == 0 and word == ">" and angle > 0:
            angle -= 1
        elif paren == 0 and word == ">>" and angle > 0:
            angle = max(0, angle - 2)
        elif paren == 0 and angle == 0 and word == "=":
            equals = k
            break
    if equals is not None:
        # A lambda held by a variable: a function by its variable's name.
        if "[" in words[equals:] and "(" in words[equals:]:
            return "function", "lambda " + words[equals - 1]
        return "block", None
    if first_paren is None:
        return "block", None
    name = function_name(words, first_paren)
    # After the parameters: qualifiers, a trailing return type, a requires clause, or a
    # constructor's initializer list.
    depth = 0
    k = first_paren
    while k < len(words):
        if words[k] == "(":
            depth += 1
        elif words[k] == ")":
            depth -= 1
            if depth == 0:
                break
        k += 1
    k += 1
    while k < len(words):
        word = words[k]
        if word in ("->", "requires"):
            return "function", name
        if word == ":":
            last = words[-1]
            if IDENTIFIER.fullmatch(last) or last == ">":
                return "member_init", name
            return "function", name
        if word in QUALIFIERS or word == "[":  # [[attributes]]
            if word in ("noexcept", "throw") and words[k + 1:k + 2] == ["("]:
                k = matching(words, k + 1)
            elif word == "[":
                if "]" not in words[k:]:
                    return "block", None
                k = words.index("]", k)
                if words[k + 1:k + 2] == ["]"]:
                    k += 1
            k += 1
            continue
        return "block", None
    return "function", name


def without_qt_macros(words):
    """Qt's declaration macros (Q_OBJECT, Q_PROPERTY(...), Q_INVOKABLE) take no semicolon."""
    out = []
    k = 0
    while k < len(words):
        if re.fullmatch(r"Q_[A-Z_]+", words[k]):
            k = matching(words, k + 1) + 1 if words[k + 1:k + 2] == ["("] else k + 1
            continue
        out.append(words[k])
        k += 1
    return out


def matching(words, open_index):
    depth = 0
    for k in range(open_index, len(words)):
        if words[k] == "(":
            depth += 1
        elif words[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(words) - 1


def function_name(words, paren):
    """The declared name before the parameters: f, Class::f, Class::~Class, operator()."""
    if "operator" in words[:paren]:
        k = words.index("operator")
        start = k - 2 if k >= 2 and words[k - 1] == "::" else k
        return "".join(words[start:paren])
    k = paren - 1
    parts = []
    while k >= 0 and IDENTIFIER.fullmatch(words[k]):
        parts.append(words[k])
        if k >= 1 and words[k - 1] == "~":
            parts.append("~")
            k -= 1
        if k >= 2 and words[k - 1] == "::":
            parts.append("::")
            k -= 2
            continue
        break
    return "".join(reversed(parts)) or "?"


def functions(text):
    """(name, first line, last line) of every function body in `text`."""
    found = []
    stack = []  # per open brace: (kind, name, first line, the head it interrupted)
    head = []  # the tokens since the last declaration or brace, at namespace or class scope
    for word, line in tokens(text):
        # Inside a function, an initializer or a member's initializer brace, tokens are the body.
        opaque = bool(stack) and stack[-1][0] in ("function", "inner", "block", "init_brace")
        if word == "{":
            if opaque:
                stack.append(("inner", None, line, None))
                continue
            kind, name = split_head(head)
            if kind == "member_init":  # the initializer list goes on after this brace
                stack.append(("init_brace", None, line, head))
                continue
            stack.append((kind, name, head[0][1] if head else line, None))
            head = []
            continue
        if word == "}":
            if not stack:
                head = []
                continue
            kind, name, start, interrupted = stack.pop()
            if kind == "function":
                classes = [n for k, n, *_ in stack if k == "class" and n]
                if classes and "::" not in name:  # defined in its class: named as outside it
                    name = "::".join(classes + [name])
                found.append((name, start, line))
            if kind == "init_brace":
                head = interrupted + [("{", start), ("}", line)]
            elif kind != "inner":
                head = []
            continue
        if opaque:
            continue
        if word == ";":
            head = []
        elif word == ":" and head and head[-1][0] in ACCESS:
            head = []
        else:
            head.append((word, line))
    return found


def long_functions(root, limit):
    faults = []
    for folder in FUNCTION_FOLDERS:
        for relative, path in source_files(root, folder):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for name, first, last in functions(text):
                length = last - first + 1
                if length > limit:
                    faults.append(f"{relative}:{first}: function {name} is {length} lines "
                                  f"(limit {limit})")
    return faults


# ---- Files: a .cpp of ui/ or core/ over its folder's limit.

def long_files(root, limits):
    faults = []
    for folder, limit in limits:
        for relative, path in source_files(root, folder, (".cpp",)):
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if lines and GENERATED.match(lines[0]):
                continue
            if len(lines) > limit:
                faults.append(f"{relative}: {len(lines)} lines (limit {limit} in {folder}/)")
    return faults


# ---- Include cycles between ui/ folders: folder A includes a header of folder B and B, directly
# or through other folders, one of A's.

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def ui_folder(relative):
    """ui/shell/main_window.hpp -> shell; a file right in ui/ is folder "ui"."""
    parts = relative.split("/")
    return parts[1] if len(parts) > 2 else "ui"


def include_edges(root):
    """{(from folder, to folder): first include line making that edge}"""
    edges = {}
    for relative, path in source_files(root, "ui"):
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                match = INCLUDE.match(text)
                if not match:
                    continue
                target = match.group(1)
                if not target.startswith("ui/"):  # relative to the including file
                    resolved = os.path.normpath(os.path.join(os.path.dirname(relative), target))
                    target = resolved.replace(os.sep, "/")
                if not target.startswith("ui/"):
                    continue
                a, b = ui_folder(relative), ui_folder(target)
                if a != b:
                    edges.setdefault((a, b), f"{relative}:{number}: #include \"{match.group(1)}\"")
    return edges


def include_cycles(root):
    edges = include_edges(root)
    after = {}
    for a, b in sorted(edges):
        after.setdefault(a, []).append(b)
    # For every edge, the shortest way back closes a cycle; each cycle once, from its least folder,
    # shortest first, and a cycle only when it has an edge none before it has.
    cycles = set()
    for a, b in sorted(edges):
        back = shortest_path(after, b, a)
        if back is None:
            continue
        cycle = [a] + back[:-1]
        least = cycle.index(min(cycle))
        cycles.add(tuple(cycle[least:] + cycle[:least]))
    faults = []
    shown = set()  # edges of the cycles named so far: a longer cycle is named for a new edge
    for cycle in sorted(cycles, key=lambda c: (len(c), c)):
        loop = list(cycle) + [cycle[0]]
        if all(edge in shown for edge in zip(loop, loop[1:])):
            continue
        shown.update(zip(loop, loop[1:]))
        lines = [f"ui/ folders include each other: {' -> '.join(loop)}"]
        for a, b in zip(loop, loop[1:]):
            lines.append(f"    {edges[(a, b)]}")
        faults.append("\n".join(lines))
    return faults


def shortest_path(after, start, goal):
    """Folders from start to goal, both included, along the include edges; None if none."""
    previous = {start: None}
    queue = deque([start])
    while queue:
        folder = queue.popleft()
        if folder == goal:
            path = []
            while folder is not None:
                path.append(folder)
                folder = previous[folder]
            return path[::-1]
        for b in after.get(folder, []):
            if b not in previous:
                previous[b] = folder
                queue.append(b)
    return None


def report(root, function_limit, ui_file_limit, core_file_limit):
    sections = [
        ("include cycles between ui/ folders", include_cycles(root)),
        ("files over their folder's limit",
         long_files(root, [("ui", ui_file_limit), ("core", core_file_limit)])),
        ("functions over the limit", long_functions(root, function_limit)),
    ]
    lines = []
    for title, faults in sections:
        if faults:
            lines.append(f"{title} ({len(faults)}):")
            lines.extend(faults)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limits", default="100,600,800",
                        help="FUNCTION,UI_FILE,CORE_FILE lines (default 100,600,800)")
    parser.add_argument("--expect", help="succeed only when the report is this file's text")
    parser.add_argument("source_dir")
    args = parser.parse_args()
    function_limit, ui_file_limit, core_file_limit = (int(x) for x in args.limits.split(","))
    lines = report(args.source_dir, function_limit, ui_file_limit, core_file_limit)
    text = "".join(line + "\n" for line in lines)
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            expected = f.read()
        if text != expected:
            print("The report differs from " + args.expect + ":")
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(True), text.splitlines(True), "expected", "reported"))
            return 1
        print("every fault of the fixture reported, and nothing else")
        return 0
    sys.stdout.write(text)
    if lines:
        return 1
    print(f"habits kept: no include cycle between ui/ folders, no .cpp over {ui_file_limit} lines "
          f"in ui/ or {core_file_limit} in core/, no function over {function_limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
