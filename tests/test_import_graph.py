"""The shape of the imports: no cycles between app/'s modules, and no module of app/, bench/ or
packaging/ reaching into another module's private names. Both are read statically (grimp and
ast), so these tests need no model and run in seconds."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import grimp
from earshot_testing import REPO_ROOT


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _app_edges() -> dict[str, set[str]]:
    graph = grimp.build_graph("app")
    modules = {m for m in graph.modules if m == "app" or m.startswith("app.")}
    return {m: {d for d in graph.find_modules_directly_imported_by(m) if d in modules} for m in modules}


def test_no_import_cycle_inside_app() -> None:
    cycles = _cycles(_app_edges())
    assert not cycles, "modules that import each other (directly or round a loop): " + "; ".join(
        " <-> ".join(c) for c in cycles)


def test_cycle_finder_sees_a_loop() -> None:
    """The finder itself: a loop of three is one cycle, a chain is none."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def _private_imports(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):  # app's modules, bench's and packaging's helpers, libraries
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):  # __version__ is public
                    yield f"{path.relative_to(REPO_ROOT)}:{node.lineno} imports {node.module}.{alias.name}"


def test_no_module_imports_another_modules_private_names() -> None:
    offenders = [hit for folder in ("app", "bench", "packaging") for path in sorted((REPO_ROOT / folder).rglob("*.py"))
                 for hit in _private_imports(path)]
    assert not offenders, "\n".join(offenders)
