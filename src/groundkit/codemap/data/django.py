"""Django models and their tables, over the whole map (``codemap.data``).

Each file reports its classes that may be models (``DjangoClass``: a class with a base, in a
file that names django or whose path has ``models`` in it) and its ``AppConfig`` classes. A
class is a model when a chain of its bases reaches ``models.Model``, through the repository's
own classes (``class User(IndexedTimeStampedModel)`` where that base's base is
``models.Model``) or Django's own abstract models (``AbstractUser``, ``AbstractBaseUser``,
``PermissionsMixin``); one whose ``Meta`` says ``abstract = True`` has no table and is no model.

The table: ``Meta.db_table``; else Django's documented default, ``app_label + "_" +`` the class
name lower-cased (docs: Models, "Table names"), where the app label is ``Meta.app_label``, else
that of the app containing the model's module: the ``AppConfig`` subclass (``apps.py``) whose
literal ``name`` is that module's package or one above it (the longest), its literal ``label``
or else ``name``'s last part (docs: Applications, ``AppConfig.label``). No such config read, a
proxy model (its table is its concrete parent's), a ``Meta`` inherited from an abstract base
that names a table: counted with the reason, never guessed.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from groundkit.codemap.data import DjangoClass, ModelDecl
from groundkit.codemap.model import Location, NodeKey, NodeKind, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.data.python import _Reader

__all__ = ["django_models", "read_django_class"]

_MODEL = frozenset({"django.db.models.Model", "django.db.models.base.Model"})
# Django's abstract models (django/contrib/auth/base_user.py and models.py): models.Model's
# subclasses with ``abstract = True``.
_ABSTRACT = frozenset(
    {
        "django.contrib.auth.models.AbstractUser",
        "django.contrib.auth.models.AbstractBaseUser",
        "django.contrib.auth.base_user.AbstractBaseUser",
        "django.contrib.auth.models.PermissionsMixin",
    }
)
_APP_CONFIG = frozenset({"django.apps.AppConfig", "django.apps.config.AppConfig"})


def read_django_class(
    reader: _Reader, node: ast.ClassDef, bases: Sequence[str], where: Location, quote: str
) -> None:
    """Note ``node`` if it may be a model (or is an ``AppConfig``)."""
    if any(b in _APP_CONFIG for b in bases):
        _app_config(reader, node)
        return
    if not any(bases) or not reader.django:
        return
    meta = _meta(node)
    if meta is None:
        reader.data.unresolved["model table not known: Meta.db_table is computed"] += 1
        return
    name = f"{reader.module.qualname}.{node.name}"
    key = NodeKey(NodeKind.CLASS, name, reader.path)
    table, app_label, abstract, proxy, has_meta = meta
    found = DjangoClass(
        name, key, tuple(bases), abstract, proxy, has_meta, table, app_label, where, quote
    )
    reader.data.django.append(found)


def _meta(node: ast.ClassDef) -> tuple[str, str, bool, bool, bool] | None:
    """(db_table, app_label, abstract, proxy, whether there is a Meta); None when db_table is
    computed."""
    table, label, abstract, proxy = "", "", False, False
    inner = next((i for i in node.body if isinstance(i, ast.ClassDef) and i.name == "Meta"), None)
    for item in inner.body if inner is not None else ():
        if not isinstance(item, ast.Assign) or len(item.targets) != 1:
            continue
        target, value = item.targets[0], item.value
        name = target.id if isinstance(target, ast.Name) else ""
        text = value.value if isinstance(value, ast.Constant) else None
        if name == "db_table":
            if not isinstance(text, str):
                return None
            table = text
        elif name == "app_label" and isinstance(text, str):
            label = text
        elif name == "abstract":
            abstract = text is True
        elif name == "proxy":
            proxy = text is True
    return table, label, abstract, proxy, inner is not None


def _app_config(reader: _Reader, node: ast.ClassDef) -> None:
    literals: dict[str, str] = {}
    for item in node.body:
        if isinstance(item, ast.Assign) and len(item.targets) == 1:
            target, value = item.targets[0], item.value
            literal = isinstance(value, ast.Constant) and isinstance(value.value, str)
            if isinstance(target, ast.Name) and literal:
                literals[target.id] = str(value.value)  # type: ignore[attr-defined]
    if "name" in literals:
        reader.data.apps.append((literals["name"], literals.get("label", "")))


def django_models(
    classes: Sequence[DjangoClass], apps: Sequence[tuple[str, str]], unresolved: Counter[str]
) -> list[ModelDecl]:
    """The concrete models among ``classes``, each with its table or why it is not known."""
    by_name: dict[str, list[DjangoClass]] = {}
    for found in classes:
        by_name.setdefault(found.name, []).append(found)
    memo: dict[str, bool] = {}

    def base(name: str) -> DjangoClass | None:
        found = by_name.get(name, [])
        return found[0] if len(found) == 1 else None

    def is_model(cls: DjangoClass, seen: frozenset[str]) -> bool:
        if cls.name not in memo:
            memo[cls.name] = any(
                b in _MODEL
                or b in _ABSTRACT
                or (
                    (parent := base(b)) is not None
                    and b not in seen
                    and is_model(parent, seen | {b})
                )
                for b in cls.bases
            )
        return memo[cls.name]

    out = []
    for cls in classes:
        if cls.abstract or not is_model(cls, frozenset({cls.name})):
            continue
        inherited = [p.table for b in cls.bases if (p := base(b)) and p.abstract and p.table]
        table, provenance, reason = "", Provenance.TABLE_DECLARED, ""
        if cls.table:
            table = cls.table
        elif inherited and not cls.meta:
            reason = "Django Meta.db_table inherited from an abstract base"
        elif cls.proxy:
            reason = "a Django proxy model's table is its concrete parent's"
        else:
            label = cls.app_label or _app_label(cls.name.rpartition(".")[0], apps)
            if label:
                short = cls.name.rpartition(".")[2].lower()
                table, provenance = f"{label}_{short}", Provenance.TABLE_DEFAULT
            else:
                reason = "Django's default table name needs the app label (no AppConfig read)"
        out.append(
            ModelDecl(cls.name, cls.node, table, provenance, cls.location, cls.quote, reason)
        )
    return out


def _app_label(module: str, apps: Sequence[tuple[str, str]]) -> str:
    """The label of the app whose package holds ``module``, when one config says it."""
    holding = [(n, label) for n, label in apps if module == n or module.startswith(n + ".")]
    if not holding:
        return ""
    longest = max(len(n) for n, _ in holding)
    labels = {label or n.rpartition(".")[2] for n, label in holding if len(n) == longest}
    return labels.pop() if len(labels) == 1 else ""
