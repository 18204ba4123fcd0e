"""A module's private names (`_name`) stay its own: no module of the apps imports another's.

(ruff's PLC2701 does not look inside one top-level package, so this reads the imports itself.)
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apps"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}")
        if isinstance(node, ast.ImportFrom) and node.level and node.names:
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_no_module_of_the_apps_imports_another_modules_private_names() -> None:
    found = [
        hit for path in sorted((ROOT / "apps").rglob("*.py")) for hit in _private_imports(path)
    ]
    assert found == []
