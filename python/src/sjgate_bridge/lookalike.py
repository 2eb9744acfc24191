"""Objects that look like the SDK's own (attribute and mapping access) for the scripted session. Each names the
stub class it imitates (STUB); the conformance tests check that it carries only fields that class declares."""

from __future__ import annotations

from typing import Any, ClassVar, Iterator


class LookAlike:
    STUB: ClassVar[str] = ""

    def __init__(self, stub: str | None = None, **fields: Any) -> None:
        object.__setattr__(self, "_stub", stub or self.STUB)
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def stub(self) -> str:
        return self._stub

    def fields(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if not name.startswith("_")}

    def keys(self) -> list[str]:
        return list(self.fields())

    def __getitem__(self, key: str) -> Any:
        return self.fields()[key]

    def __contains__(self, key: object) -> bool:
        return key in self.fields()

    def __len__(self) -> int:
        return len(self.fields())

    def dict(self) -> dict[str, Any]:
        return self.fields()

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={value!r}" for key, value in self.fields().items())
        return f"{self._stub}({inner})"


class Group:
    """ContractGroup: the contracts of one exchange or product root."""

    def __init__(self, name: str, contracts: list[Any]) -> None:
        self._name = name
        self._contracts = {contract.code: contract for contract in contracts}

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._contracts.values()))

    def __getitem__(self, code: str) -> Any:
        return self._contracts[code]

    def get(self, key: str, default: object = None) -> Any:
        return self._contracts.get(key, default)

    def __repr__(self) -> str:
        return f"ContractGroup({self._name})"


class Category:
    """ContractCategory: groups by exchange (stocks, indexes) or root (futures, options); `get` finds either."""

    def __init__(self, groups: dict[str, list[Any]]) -> None:
        self._groups = {name: Group(name, contracts) for name, contracts in groups.items()}

    def __iter__(self) -> Iterator[Group]:
        return iter(list(self._groups.values()))

    def get(self, key: str, default: object = None) -> Any:
        if key in self._groups:
            return self._groups[key]
        for group in self._groups.values():
            found = group.get(key)
            if found is not None:
                return found
        return default

    def __getitem__(self, key: str) -> Any:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found


class ContractsView:
    def __init__(self, categories: dict[str, Category]) -> None:
        self._categories = categories
        self.Stocks = categories["Stocks"]
        self.Futures = categories["Futures"]
        self.Options = categories["Options"]
        self.Indexs = categories["Indexs"]

    def __iter__(self) -> Iterator[tuple[str, Category]]:
        return iter(list(self._categories.items()))

    def __len__(self) -> int:
        return len(self._categories)
