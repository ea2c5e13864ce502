"""One concept, one type: no class name is defined twice in app/. Two classes of one name are
either one concept written twice (declare it once and import it) or two concepts that need
names of their own. Read statically (ast), so this test needs no model and runs in a second."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable

from earshot_testing import REPO_ROOT


def _defined_twice(modules: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Class names defined more than once across `modules` ((path, source) pairs), nested
    classes included, with each definition as "path:line"."""
    where: dict[str, list[str]] = defaultdict(list)
    for path, source in modules:
        for node in ast.walk(ast.parse(source, path)):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{path}:{node.lineno}")
    return {name: places for name, places in sorted(where.items()) if len(places) > 1}


def test_no_class_name_is_defined_twice_in_app() -> None:
    modules = [(str(path.relative_to(REPO_ROOT)), path.read_text(encoding="utf-8"))
               for path in sorted((REPO_ROOT / "app").rglob("*.py"))]
    assert len(modules) > 100  # the whole package was read
    twice = _defined_twice(modules)
    assert not twice, "class names defined more than once: " + "; ".join(
        f"{name} ({', '.join(places)})" for name, places in twice.items())


def test_finder_sees_a_name_defined_twice() -> None:
    """The finder itself: the same name in two modules (or nested in one) is found, with where."""
    one = "class Word:\n    pass\n\n\nclass Segment:\n    class Word:\n        pass\n"
    other = "from dataclasses import dataclass\n\n\n@dataclass\nclass Word:\n    text: str\n"
    assert _defined_twice([("a.py", one), ("b.py", other)]) == {"Word": ["a.py:1", "a.py:6", "b.py:5"]}
    assert _defined_twice([("a.py", "class Word: ...\n"), ("b.py", "class Segment: ...\n")]) == {}
